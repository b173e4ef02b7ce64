import Foundation
import Testing

/// Compiles snippets against the built CoreDataQueryInterface module with `swiftc -typecheck`:
/// well-typed filters must compile, and ill-typed ones (a String attribute compared with a number, …)
/// must not.
/// Gated behind CDQI_E2E=1 because each compile takes a few seconds.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["CDQI_E2E"] == "1", "set CDQI_E2E=1 to run"))
struct OperatorTypeCheckTests {
    /// The declarations every snippet sees; the snippet itself starts on line ``bodyLine``.
    private static let header = """
        import CoreDataQueryInterface
        import Foundation
        final class A: EntityAttribute, Subqueryable {
            lazy var lastName = StringAttribute(key: "lastName", parent: self)
            lazy var salary = Integer32Attribute(key: "salary", parent: self)
            lazy var hireDate = DateAttribute(key: "hireDate", parent: self)
            lazy var rate = DoubleAttribute(key: "rate", parent: self)
            lazy var photo = TransformableAttribute(key: "photo", parent: self)
            lazy var manager = A(key: "manager", parent: self)
            lazy var reports = A(key: "reports", parent: self)
        }
        enum Weekday: Int, TypedExpressionConvertible { case sunday = 1, monday }
        enum Mood: String, TypedExpressionConvertible { case calm }
        let a = A()

        """

    /// The line of `snippet.swift` the body starts on (the one after the header's last newline).
    private static let bodyLine = header.filter { $0 == "\n" }.count + 1

    /// Whether a failed compile failed on the snippet (not on a broken setup).
    private static func failedOnBody(_ result: (status: Int32, errors: String)) -> Bool {
        result.status != 0 && result.errors.contains("snippet.swift:\(bodyLine):") && !result.errors.contains("no such module")
    }

    /// Type-checks `body` after the header (and an extra import) against the built modules.
    private static func typecheck(_ body: String, importing extra: String? = nil) throws -> (status: Int32, errors: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdqi-typecheck-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("snippet.swift")
        // An extra import goes on the header's first line, so the body keeps its line number.
        let prefix = extra.map { "import \($0); " } ?? ""
        try (prefix + header + body + "\n").write(to: source, atomically: true, encoding: .utf8)
        return try SwiftcTypecheck.run(source)
    }

    @Test func wellTypedComparisonsCompile() throws {
        let result = try Self.typecheck(#"_ = a.lastName == "x" && a.salary > 5"#)
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test func stringAttributeComparedWithNumberDoesNotCompile() throws {
        let result = try Self.typecheck("_ = a.lastName == 5")
        #expect(result.status != 0)
        // The failure must be on the comparison, not a broken setup.
        #expect(Self.failedOnBody(result), "\(result.errors)")
    }

    @Test func integerAttributeComparedWithStringDoesNotCompile() throws {
        let result = try Self.typecheck(#"_ = a.salary < "high""#)
        #expect(result.status != 0)
        #expect(Self.failedOnBody(result), "\(result.errors)")
    }

    @Test func theFilteringSurfaceCompiles() throws {
        // One snippet per line would cost a compile each; all of these go in one.
        let result = try Self.typecheck(
            """
            let limit = 5; let small: UInt8 = 1; let nick: String? = nil; let day = Weekday.monday
            _ = a.salary > limit && a.salary == small && a.lastName == nick && a.salary == day && a.lastName == Mood.calm
            _ = a.salary > a.salary && a.rate >= a.salary && a.salary == [1, 2] && a.salary != [limit]
            _ = a.photo == nil && a.manager != nil && a.lastName ~= "x" && not(a.rate < 1.5)
            _ = any(a.reports.lastName == "x") || all(a.reports.salary > 1) || some(a.reports.salary > 1) || none(a.reports.salary > 1)
            _ = a.reports.cdqiCount() > 3 && a.reports.salary.cdqiMax() >= 100 && a.reports.salary.cdqiAverage() > 1.5
            _ = subquery(a.reports) { $0.salary > 100 }.cdqiCount() > 2 && a.reports.cdqiSubquery { $0.lastName == nil }.cdqiCount() == 0
            _ = equalTo(a.lastName, "x", options: .caseInsensitive) && a.salary.cdqiBetween(1, and: 2) && a.hireDate > Date()
            _ = max(a.salary, alias: "top").cdqiName + alias(count(a.reports), name: "n").cdqiName
            _ = max(1, 2) + min(3, 4) + [1, 2].count   // the standard library's min and max still resolve
            """)
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test func boolFilterClosuresOnAQueryDoNotCompile() throws {
        // With an entity class whose properties a Bool closure could read, the proxy form must be
        // the query's filter, and a closure that only makes sense on objects must not compile into an
        // in-memory filter: it fails on the snippet's line with the message that names the fix.
        let entity =
            "final class Emp: ManagedObject { var manager: Emp? { nil }; var n: Int? { nil } }; "
            + "extension Emp: Entity { typealias CDQIAttribute = A }; let q = Query<Emp, Emp>()"
        let proxy = try Self.typecheck(
            entity + "; let x = q.filter { $0.manager == nil }; let _: Query<Emp, Emp> = x.filter { $0.manager != nil }", importing: "CDQIStore")
        #expect(proxy.status == 0, "\(proxy.errors)")
        let inMemory = try Self.typecheck(entity + "; _ = q.filter { ($0.n ?? 0) > 50 }", importing: "CDQIStore")
        #expect(Self.failedOnBody(inMemory), "\(inMemory.errors)")
        #expect(inMemory.errors.contains("cannot become SQL"), "\(inMemory.errors)")
    }

    @Test func illTypedFiltersDoNotCompile() throws {
        // Each must fail on its own line: a string with an Int variable, a date with a string, an
        // entity proxy with a string, a quantified string compared with a number, a count with a
        // string, BETWEEN with mismatched bounds, a string function on a number, a transformable
        // with a value, a raw-valued enum against the wrong attribute type.
        let snippets = [
            "let n = 5; _ = a.lastName == n",
            #"_ = a.hireDate > "2020""#,
            #"_ = a.manager == "Ann""#,
            "_ = any(a.reports.lastName == 5)",
            #"_ = a.reports.cdqiCount() > "3""#,
            #"_ = a.salary.cdqiBetween(1, and: "2")"#,
            #"_ = a.salary.cdqiBeginsWith("1")"#,
            #"_ = a.photo == "x""#,
            "_ = a.lastName == Weekday.monday",
            "_ = a.salary == Mood.calm",
            "_ = a.lastName < a.salary",
            // CDQI's README: "The following will not compile: $0.languages.name == 4".
            "_ = a.reports.lastName == 4",
        ]
        for snippet in snippets {
            let result = try Self.typecheck(snippet)
            #expect(Self.failedOnBody(result), "\(snippet) compiled or failed elsewhere: \(result.errors)")
        }
    }
}
