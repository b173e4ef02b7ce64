import Foundation
import Testing

/// `cdqi generate --lightyear`: Queryable conformances instead of proxies.
@Suite struct GenerateLightyearTests {
    @Test func writesAConformancePerEntityClassAndNoProxy() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Company.xcdatamodeld")
        let output = try CommandRunner.run(["Company", "--lightyear", "-o", "Out"], in: folder.url)
        #expect(output.status == 0)
        // The untyped transient `scratch` gets no proxy property, but without proxies that is no news.
        #expect(output.standardError.isEmpty)
        // Department and Employee have code generation `class`: their classes and the model are written
        // as without --lightyear; TestEntity (manual) gets its conformance only.
        #expect(
            folder.files(in: "Out") == [
                "CompanyModel.swift", "Department+Queryable.swift", "Department.swift", "Employee+Queryable.swift",
                "Employee.swift", "TestEntity+Queryable.swift",
            ])
        let employee = try #require(folder.contents("Out/Employee+Queryable.swift"))
        #expect(
            employee.hasSuffix(
                """
                import Query

                nonisolated extension Employee: Queryable {
                    enum Attribute {
                        case firstName, hireDate, lastName, nickName, salary
                    }
                }

                """))
        // The transient, untyped `scratch` is no case.
        let testEntity = try #require(folder.contents("Out/TestEntity+Queryable.swift"))
        #expect(!testEntity.contains("scratch"))
        #expect(
            testEntity.contains(
                "case binary, boolean, date, decimal, double, float, integer16, integer32, integer64, string, "
                    + "transformable, uri, uuid\n"))
    }

    @Test func mergedWritesOneFile() throws {
        let folder = try TemporaryFolder()
        try folder.copyFixture("Company.xcdatamodeld")
        let output = try CommandRunner.run(["Company", "--lightyear", "-m", "-o", "Out"], in: folder.url)
        #expect(output.status == 0)
        #expect(folder.files(in: "Out") == ["Company+Queryable.swift"])
        let merged = try #require(folder.contents("Out/Company+Queryable.swift"))
        #expect(merged.contains("nonisolated extension Department: Queryable {\n    enum Attribute {\n        case budget, name\n    }\n}"))
        #expect(!merged.contains("CoreDataQueryInterface"))
    }
}
