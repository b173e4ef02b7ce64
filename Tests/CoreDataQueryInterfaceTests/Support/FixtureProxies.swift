import CDQIStore
import CoreDataQueryInterface

// Proxies and entity classes for the fixture models, written by hand in the shape `cdqi` generates
// (one `EntityAttribute` subclass per entity; a to-many relationship uses the destination's proxy),
// named `Fixture…` so that they never clash with the private proxies of other suites.

// MARK: Company

final class FixtureDepartmentAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var budget = DecimalAttribute(key: "budget", parent: self)
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
    private(set) lazy var employees = FixtureEmployeeAttribute(key: "employees", parent: self)
}

final class FixtureEmployeeAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var firstName = StringAttribute(key: "firstName", parent: self)
    private(set) lazy var hireDate = DateAttribute(key: "hireDate", parent: self)
    private(set) lazy var lastName = StringAttribute(key: "lastName", parent: self)
    private(set) lazy var nickName = StringAttribute(key: "nickName", parent: self)
    private(set) lazy var salary = Integer32Attribute(key: "salary", parent: self)
    private(set) lazy var department = FixtureDepartmentAttribute(key: "department", parent: self)
}

final class FixtureTestEntityAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var binary = DataAttribute(key: "binary", parent: self)
    private(set) lazy var boolean = BooleanAttribute(key: "boolean", parent: self)
    private(set) lazy var date = DateAttribute(key: "date", parent: self)
    private(set) lazy var decimal = DecimalAttribute(key: "decimal", parent: self)
    private(set) lazy var double = DoubleAttribute(key: "double", parent: self)
    private(set) lazy var float = FloatAttribute(key: "float", parent: self)
    private(set) lazy var integer16 = Integer16Attribute(key: "integer16", parent: self)
    private(set) lazy var integer32 = Integer32Attribute(key: "integer32", parent: self)
    private(set) lazy var integer64 = Integer64Attribute(key: "integer64", parent: self)
    private(set) lazy var string = StringAttribute(key: "string", parent: self)
    private(set) lazy var transformable = TransformableAttribute(key: "transformable", parent: self)
    private(set) lazy var uri = URIAttribute(key: "uri", parent: self)
    private(set) lazy var uuid = UUIDAttribute(key: "uuid", parent: self)
}

final class FixtureDepartment: ManagedObject, Entity {
    typealias CDQIAttribute = FixtureDepartmentAttribute
    static var cdqiEntityName: String { "Department" }
}

final class FixtureEmployee: ManagedObject, Entity {
    typealias CDQIAttribute = FixtureEmployeeAttribute
    static var cdqiEntityName: String { "Employee" }
}

final class FixtureTestEntity: ManagedObject, Entity {
    typealias CDQIAttribute = FixtureTestEntityAttribute
    static var cdqiEntityName: String { "TestEntity" }
}

// MARK: Developers

final class FixtureDeveloperAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var firstName = StringAttribute(key: "firstName", parent: self)
    private(set) lazy var lastName = StringAttribute(key: "lastName", parent: self)
    private(set) lazy var nickName = StringAttribute(key: "nickName", parent: self)
    private(set) lazy var languages = FixtureLanguageAttribute(key: "languages", parent: self)
    private(set) lazy var ledProjects = FixtureProjectAttribute(key: "ledProjects", parent: self)
    private(set) lazy var projects = FixtureProjectAttribute(key: "projects", parent: self)
}

final class FixtureLanguageAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
    private(set) lazy var developers = FixtureDeveloperAttribute(key: "developers", parent: self)
}

final class FixtureProjectAttribute: EntityAttribute, Subqueryable {
    private(set) lazy var deadline = DateAttribute(key: "deadline", parent: self)
    private(set) lazy var name = StringAttribute(key: "name", parent: self)
    private(set) lazy var lead = FixtureDeveloperAttribute(key: "lead", parent: self)
    private(set) lazy var members = FixtureDeveloperAttribute(key: "members", parent: self)
}

final class FixtureDeveloper: ManagedObject, Entity {
    typealias CDQIAttribute = FixtureDeveloperAttribute
    static var cdqiEntityName: String { "Developer" }
}

final class FixtureLanguage: ManagedObject, Entity {
    typealias CDQIAttribute = FixtureLanguageAttribute
    static var cdqiEntityName: String { "Language" }
}

final class FixtureProject: ManagedObject, Entity {
    typealias CDQIAttribute = FixtureProjectAttribute
    static var cdqiEntityName: String { "Project" }
}

/// A user type compared with an Integer 32 attribute, as in CDQI's README: conforming is enough,
/// the comparison type and the stored value come from the raw value.
enum Weekday: Int, TypedExpressionConvertible {
    case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday
}
