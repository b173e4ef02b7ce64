import CDQIPredicate
import CDQIStore
import CoreDataQueryInterface
import Foundation
import Testing

/// The predicates the filtering surface builds, checked through their printed format (the format
/// NSPredicate would print for the same predicate, written out by hand).
@Suite struct FilterOperatorTests {
    let e = FixtureEmployeeAttribute()
    let d = FixtureDepartmentAttribute()
    let t = FixtureTestEntityAttribute()
    let dev = FixtureDeveloperAttribute()

    @Test func nilComparisonsOnEveryKindOfProxy() {
        #expect((e.nickName == nil).predicateFormat == "nickName == nil")
        #expect((e.nickName != nil).predicateFormat == "nickName != nil")
        #expect((e.department == nil).predicateFormat == "department == nil")
        #expect((e.department.name != nil).predicateFormat == "department.name != nil")
        #expect((t.transformable == nil).predicateFormat == "transformable == nil")
        #expect((t.uuid != nil).predicateFormat == "uuid != nil")
        let nick: String? = nil
        #expect((e.nickName == nick).predicateFormat == "nickName == nil")
        let known: String? = "Kay"
        #expect((e.nickName == known).predicateFormat == #"nickName == "Kay""#)
    }

    @Test func membershipWithArrays() {
        #expect((e.salary == [45000, 47000]).predicateFormat == "salary IN {45000, 47000}")
        #expect((e.salary != [45000, 47000]).predicateFormat == "NOT salary IN {45000, 47000}")
        #expect((e.lastName == ["Lee", "Smith"]).predicateFormat == #"lastName IN {"Lee", "Smith"}"#)
        #expect(e.lastName.cdqiAmong(["lee"], options: .caseInsensitive).predicateFormat == #"lastName IN[c] {"lee"}"#)
        #expect(among(e.salary, [1, 2]).predicateFormat == "salary IN {1, 2}")
    }

    @Test func matchesOperatorAndNot() {
        #expect((e.lastName ~= "S.*").predicateFormat == #"lastName MATCHES "S.*""#)
        #expect(not(e.salary > 5).predicateFormat == "NOT salary > 5")
        #expect((!(e.salary > 5) || e.nickName == nil).predicateFormat == "(NOT salary > 5) OR nickName == nil")
    }

    @Test func quantifiersWrapComparisonsOnToManyPaths() throws {
        #expect(any(dev.languages.name == "Swift").predicateFormat == #"ANY languages.name == "Swift""#)
        #expect(some(dev.languages.name == "Swift").predicateFormat == #"ANY languages.name == "Swift""#)
        #expect(all(dev.languages.name == "C").predicateFormat == #"ALL languages.name == "C""#)
        #expect(none(dev.languages.name == "C").predicateFormat == #"NOT ANY languages.name == "C""#)
        #expect(
            any(dev.languages.name.cdqiBeginsWith("S", options: .caseInsensitive)).predicateFormat
                == #"ANY languages.name BEGINSWITH[c] "S""#)
        // Every comparison inside is quantified on its own.
        #expect(
            any(dev.languages.name == "C" || dev.projects.name == "Kernel").predicateFormat
                == #"ANY languages.name == "C" OR ANY projects.name == "Kernel""#)
        // The format parser reads the same predicates back.
        #expect(none(dev.languages.name == "C") == (try PredicateNode(format: "NONE languages.name == 'C'")))
        #expect(all(dev.languages.name == "C") == (try PredicateNode(format: "ALL languages.name == 'C'")))
    }

    @Test func comparisonFunctionsAndTheirMethodTwins() {
        let pairs: [(PredicateNode, PredicateNode, String)] = [
            (
                equalTo(e.lastName, "lee", options: .caseInsensitive), e.lastName.cdqiEqualTo("lee", options: .caseInsensitive),
                #"lastName ==[c] "lee""#
            ),
            (notEqualTo(e.salary, 5), e.salary.cdqiNotEqualTo(5), "salary != 5"),
            (lessThan(e.salary, 5), e.salary.cdqiLessThan(5), "salary < 5"),
            (lessThanOrEqualTo(e.salary, 5), e.salary.cdqiLessThanOrEqualTo(5), "salary <= 5"),
            (greaterThan(e.salary, 5), e.salary.cdqiGreaterThan(5), "salary > 5"),
            (greaterThanOrEqualTo(e.salary, 5), e.salary.cdqiGreaterThanOrEqualTo(5), "salary >= 5"),
            (between(e.salary, 1, 9), e.salary.cdqiBetween(1, and: 9), "salary BETWEEN {1, 9}"),
            (among(e.lastName, ["A", "B"]), e.lastName.cdqiAmong(["A", "B"]), #"lastName IN {"A", "B"}"#),
            (
                contains(e.lastName, "mit", options: .caseInsensitive), e.lastName.cdqiContains("mit", options: .caseInsensitive),
                #"lastName CONTAINS[c] "mit""#
            ),
            (
                like(e.lastName, "S*h", options: .diacriticInsensitive), e.lastName.cdqiLike("S*h", options: .diacriticInsensitive),
                #"lastName LIKE[d] "S*h""#
            ),
            (
                beginsWith(e.lastName, "sm", options: [.caseInsensitive, .diacriticInsensitive]),
                e.lastName.cdqiBeginsWith("sm", options: [.caseInsensitive, .diacriticInsensitive]), #"lastName BEGINSWITH[cd] "sm""#
            ),
            (
                endsWith(e.lastName, "th", options: .normalized), e.lastName.cdqiEndsWith("th", options: .normalized),
                #"lastName ENDSWITH[n] "th""#
            ),
            (matches(e.lastName, "S.*"), e.lastName.cdqiMatches("S.*"), #"lastName MATCHES "S.*""#),
        ]
        for (function, method, format) in pairs {
            #expect(function.predicateFormat == format)
            #expect(method == function)
        }
        #expect(e.salary.cdqiBetween(10...20).predicateFormat == "salary BETWEEN {10, 20}")
    }

    @Test func keyPathsCompareWithKeyPathsOfTheSameType() {
        #expect((t.integer16 < t.integer64).predicateFormat == "integer16 < integer64")
        #expect((t.double >= t.float).predicateFormat == "double >= float")
        #expect((e.firstName == e.lastName).predicateFormat == "firstName == lastName")
        #expect(e.firstName.cdqiEqualTo(e.nickName, options: .caseInsensitive).predicateFormat == "firstName ==[c] nickName")
        #expect(greaterThan(e.salary, e.department.budget).predicateFormat == "salary > department.budget")
    }

    @Test func everyIntegerWidthAndUserTypesCompareWithIntegerAttributes() {
        let limit = 100_000  // an Int
        #expect((e.salary > limit).predicateFormat == "salary > 100000")
        #expect((t.integer16 == UInt8(2)).predicateFormat == "integer16 == 2")
        #expect((t.integer64 <= Int8(-3)).predicateFormat == "integer64 <= -3")
        #expect((t.integer32 != UInt16(7)).predicateFormat == "integer32 != 7")
        #expect((t.integer32 == [UInt32(1), 2]).predicateFormat == "integer32 IN {1, 2}")
        #expect((t.integer32 == Weekday.wednesday).predicateFormat == "integer32 == 4")
        #expect((t.integer32 == [Weekday.sunday, .saturday]).predicateFormat == "integer32 IN {1, 7}")
        #expect((t.integer16 > Priority.low).predicateFormat == "integer16 > 1")
        #expect((t.string == Mood.calm).predicateFormat == #"string == "calm""#)
        #expect((t.double > 2).predicateFormat == "double > 2")
        #expect((t.float < 1.5).predicateFormat == "float < 1.5")
        #expect((t.decimal >= Decimal(string: "1.25") ?? 0).predicateFormat == "decimal >= 1.25")
        // Beyond Int64: an exact decimal constant, not a trap or a wrapped value.
        let huge = UInt64.max
        #expect(
            (t.integer64 < huge)
                == .comparison(
                    .keyPath("integer64"), .lessThan,
                    .constant(.decimal(Decimal(string: "18446744073709551615") ?? 0))))
        #expect((t.boolean == true).predicateFormat == "boolean == 1")
    }

    @Test func aggregatesOverToManyPaths() {
        #expect((d.employees.cdqiCount() > 3).predicateFormat == "employees.@count > 3")
        #expect((d.employees.salary.cdqiMax() >= 100_000).predicateFormat == "employees.@max.salary >= 100000")
        #expect((d.employees.salary.cdqiMin() < 50_000).predicateFormat == "employees.@min.salary < 50000")
        #expect((d.employees.salary.cdqiSum() > 200_000).predicateFormat == "employees.@sum.salary > 200000")
        #expect((d.employees.salary.cdqiAverage() > 70_000.5).predicateFormat == "employees.@avg.salary > 70000.5")
        #expect((count(d.employees) == 0).predicateFormat == "employees.@count == 0")
        #expect((max(d.employees.salary) > 1).predicateFormat == "employees.@max.salary > 1")
        #expect((min(d.employees.lastName) == "A").predicateFormat == #"employees.@min.lastName == "A""#)
        #expect((average(d.employees.salary) > 1.0).predicateFormat == "employees.@avg.salary > 1.0")
        #expect((sum(d.employees.salary) > 1).predicateFormat == "employees.@sum.salary > 1")
        #expect(
            (d.employees.cdqiCount() > d.employees.salary.cdqiCount()).predicateFormat
                == "employees.@count > employees.salary.@count")
        #expect((d.employees.salary.cdqiMax() == nil).predicateFormat == "employees.@max.salary == nil")
    }

    @Test func aggregateValueTypesFollowTheAttribute() {
        // The Value of each aggregate, checked through the types the compiler infers.
        let count: AggregateExpression<Int64> = d.employees.cdqiCount()
        let maxSalary: AggregateExpression<Int32> = d.employees.salary.cdqiMax()
        let averageSalary: AggregateExpression<Double> = d.employees.salary.cdqiAverage()
        let averageBudget: AggregateExpression<Decimal> = average(d.budget)
        let sumFloat: AggregateExpression<Float> = sum(t.float)
        let latest: AggregateExpression<Date> = max(t.date)
        #expect(count.function == .count)
        #expect(maxSalary.cdqiKeyPath == "employees.salary")
        #expect(averageSalary.function == .average)
        #expect(averageBudget.cdqiName == "budgetAverage")
        #expect(sumFloat.cdqiName == "floatSum")
        #expect(latest.cdqiName == "dateMax")
    }

    @Test func aggregateAliases() {
        #expect(max(e.salary, alias: "top").cdqiName == "top")
        #expect(alias(max(e.salary), name: "top").cdqiName == "top")
        #expect(e.salary.cdqiMax(alias: "top").cdqiName == "top")
        #expect(e.department.name.cdqiCount().cdqiName == "departmentNameCount")
        #expect(count(e.salary, alias: "n").selectionExpression.expressionFormat == "count:(salary)")
    }

    @Test func subqueriesAndTheirCounts() throws {
        let expected = "SUBQUERY(employees, $x, $x.salary > 100).@count > 2"
        #expect((subquery(d.employees) { $0.salary > 100 }.cdqiCount() > 2).predicateFormat == expected)
        #expect((d.employees.cdqiSubquery { $0.salary > 100 }.cdqiCount() > 2).predicateFormat == expected)
        #expect((subqueryCount(d.employees) { $0.salary > 100 } > 2).predicateFormat == expected)
        #expect((d.employees.cdqiSubqueryCount { $0.salary > 100 } > 2).predicateFormat == expected)
        #expect(
            (subquery(d.employees) { $0.salary > 100 }.cdqiCount() > 2)
                == (try PredicateNode(format: "SUBQUERY(employees, $x, $x.salary > 100).@count > 2")))
        // The closure's proxy is rooted at the variable, through to-one paths too.
        #expect(
            (subquery(d.employees) { $0.department.name == "Sales" && $0.nickName == nil }.cdqiCount() == 0).predicateFormat
                == #"SUBQUERY(employees, $x, $x.department.name == "Sales" AND $x.nickName == nil).@count == 0"#)
        // Nested subqueries get their own variables; the outer variable stays reachable.
        let nested =
            FixtureProjectAttribute().members.cdqiSubquery { member in
                subquery(member.languages) { $0.name == "C" || $0.name == member.firstName }.cdqiCount() > 0
            }.cdqiCount() >= 2
        #expect(
            nested.predicateFormat == #"SUBQUERY(members, $x, SUBQUERY($x.languages, $x2, $x2.name == "C" OR $x2.name == $x.firstName).@count > 0).@count >= 2"#
        )
        // A quantifier inside a subquery.
        #expect(
            (subquery(FixtureProjectAttribute().members) { any($0.languages.name == "C") }.cdqiCount() >= 2).predicateFormat
                == #"SUBQUERY(members, $x, ANY $x.languages.name == "C").@count >= 2"#)
    }

    @Test func managedObjectsAndObjectIDsAsOperands() throws {
        let (_, context) = try FixtureData.company()
        let sales = try context.fetch(FetchRequest(entityName: "Department", predicate: try PredicateNode(format: "name == 'Sales'")))
        let department = try #require(sales.first)
        let reference = department.objectID.reference
        #expect((e.department == department) == .comparison(.keyPath("department"), .equalTo, .constant(.objectID(reference))))
        #expect((e.department == department.objectID) == (e.department == department))
        #expect(
            (e.department != department).predicateFormat
                == #"department != CAST("\#(reference.uriString)", "NSManagedObjectID")"#)
        let root = FixtureDepartmentAttribute()
        #expect(
            (root == [department.objectID])
                == .comparison(
                    .evaluatedObject, .in, ExpressionNode(kind: .constantCollection([.constant(.objectID(reference))], ordered: true))))
        #expect((root == [department.objectID]).predicateFormat.hasPrefix("SELF IN {CAST("))
        #expect((root != department).predicateFormat.hasPrefix("SELF != CAST("))
    }

    @Test func filtersTakeTheNewOperators() {
        let query = Query<FixtureEmployee, FixtureEmployee>()
            .filter { $0.nickName == nil }
            .filter { any($0.department.employees.salary > 100_000) }
        #expect(query.request().predicate?.predicateFormat == "nickName == nil AND ANY department.employees.salary > 100000")
    }
}

/// A user type naming its comparison type explicitly, as CDQI's README spells it.
private enum Priority: Int16, TypedExpressionConvertible {
    typealias CDQIComparisonType = NSNumber
    case low = 1, high
}

/// A string-backed user type: it compares with String attributes.
private enum Mood: String, TypedExpressionConvertible {
    case calm, cross
}
