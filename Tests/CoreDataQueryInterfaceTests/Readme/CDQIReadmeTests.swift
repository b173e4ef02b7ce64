import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// Every Swift snippet of CoreDataQueryInterface's README (v5, the one whose examples use Developer,
/// Language and Project) that is user code, compiled here as part of this test target and run against
/// `CDQIReadmeData` (the answers are worked out from its tables).
///
/// Two respellings only, both forced by the language rather than by this package: `try` before the
/// calls that run a query (they throw typed errors here; CDQI's README leaves `try` out), and each
/// line of a chain starting with its `.` (Swift 6 rejects the README's dot at the end of a line:
/// "expected member name following '.'"). `managedObjectContext` is CDQI's name for the context.
/// The README's other blocks are CDQI's own declarations (`protocol ExpressionConvertible`,
/// `extension String: TypedExpressionConvertible`, which this module already declares), install
/// lines and a shell command. `$0.languages.name == 4`, which the README says must not compile, is
/// checked by `OperatorTypeCheckTests` (under CDQI_E2E=1).
@Suite struct CDQIReadmeTests {
    @Test func overview() throws {
        let (_, managedObjectContext) = try CDQIReadmeData.context()
        let swiftDevelopers = try managedObjectContext.from(Developer.self)
            .filter { any($0.languages.name == "Swift") }
            .order(ascending: false, { $0.lastName })
            .limit(5)
            .all()
        // Swift: Chris Lattner and Ada Lovelace; last names descending: Lovelace, Lattner.
        #expect(swiftDevelopers.map(\.firstName) == ["Ada", "Chris"])
    }

    @Test func queryReuse() throws {
        let (_, managedObjectContext) = try CDQIReadmeData.context()
        let projectQuery = Query<Project, Project>()
        let swiftProjectQuery = projectQuery.filter { any($0.languages.name == "Swift") }
        // Vapor, Compiler and Kitura are written in Swift; the first query still sees all five projects.
        #expect(try swiftProjectQuery.count(managedObjectContext: managedObjectContext) == 3)
        #expect(try projectQuery.count(managedObjectContext: managedObjectContext) == 5)
    }

    @Test func examples() throws {
        let (_, managedObjectContext) = try CDQIReadmeData.context()
        let developerQuery = managedObjectContext.from(Developer.self)
        // predicate: languages.@count == 3 AND ANY languages.name == "Rust"
        // developersWhoKnowThreeLanguagesIncludingRust is an array of Developer entities
        let developersWhoKnowThreeLanguagesIncludingRust = try developerQuery.filter { $0.languages.cdqiCount() == 3 && any($0.languages.name == "Rust") }.all()
        // Three languages: Chris (Swift, C, Rust), Ada (no Rust), Simon (Haskell, C, Rust).
        #expect(Set(developersWhoKnowThreeLanguagesIncludingRust.map(\.firstName)) == ["Chris", "Simon"])

        // predicate: ANY languages.name == "Haskell"
        // haskellDevelopers is an array of dictionaries, e.g., [["firstName": "Haskell", "lastName": "Curry"]]
        let haskellDevelopers =
            try developerQuery
            .filter { developer in any(developer.languages.name == "Haskell") }
            .select { developer in [developer.firstName, developer.lastName] }.all()
        let haskellNames = Set(haskellDevelopers.map { "\($0["firstName"] as? String ?? "?") \($0["lastName"] as? String ?? "?")" })
        #expect(haskellNames == ["Haskell Curry", "Ada Lovelace", "Simon Peyton Jones"])
        #expect(haskellDevelopers.allSatisfy { $0.count == 2 })

        // Instead of using $0, we can create a proxy up front.
        let project = Project.CDQIAttribute()

        // We can do a query in a single line
        var swiftProjectNames: [String] = try managedObjectContext.from(Project.self)
            .filter(any(project.languages.name == "Swift"))
            .order(project.name).array(project.name)
        #expect(swiftProjectNames == ["Compiler", "Kitura", "Vapor"])

        // Or we can build it up in multiple lines
        var projectQuery = managedObjectContext.from(Project.self)
        projectQuery = projectQuery.filter(any(project.languages.name == "Swift"))
        projectQuery = projectQuery.order(project.name)
        swiftProjectNames = try projectQuery.array(project.name)
        #expect(swiftProjectNames == ["Compiler", "Kitura", "Vapor"])
    }

    /// The README's `Weekday`, in this module's spelling: CDQI's conformance returns an `NSExpression`
    /// and an `NSAttributeType` (Core Data types Linux does not have); here a raw-valued enum only
    /// declares the conformance. The comparison itself, `$0.weekday == Weekday.Monday`, is CDQI's.
    @Test func typeSafetyWithAUserType() {
        final class ShiftAttribute: EntityAttribute {
            private(set) lazy var weekday = Integer32Attribute(key: "weekday", parent: self)
        }
        let predicate = { ($0 as ShiftAttribute).weekday == Weekday.Monday }(ShiftAttribute())
        #expect(predicate.predicateFormat == "weekday == 2")
    }

    // The README's enum, nested so that it does not clash with this module's own `Weekday`.
    enum Weekday: Int {
        case Sunday = 1
        case Monday = 2
        case Tuesday = 3
        case Wednesday = 4
        case Thursday = 5
        case Friday = 6
        case Saturday = 7
    }
}

extension CDQIReadmeTests.Weekday: TypedExpressionConvertible {}
