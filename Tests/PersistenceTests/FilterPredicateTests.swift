import CDQIPredicate
import Persistence
import Testing

/// Each factory's predicate, as Apple's `predicateFormat` prints it (texts written by hand).
@Suite struct FilterPredicateTests {
    private func text(_ filter: CDFilter) -> String? {
        filter.createPredicate()?.predicateFormat
    }

    @Test func comparisonFactories() {
        #expect(text(CDFilter.equals("name", value: "abc")) == #"name == "abc""#)
        #expect(text(CDFilter.notEquals("name", value: "abc")) == #"name != "abc""#)
        #expect(text(CDFilter.less("intProperty", value: 10)) == "intProperty < 10")
        #expect(text(CDFilter.greather("intProperty", value: 10)) == "intProperty > 10")
        #expect(text(CDFilter.greater("intProperty", value: 10)) == "intProperty > 10")
        #expect(text(CDFilterFactory.greather("intProperty", value: 7)) == "intProperty > 7")
    }

    @Test func likeAppendsAStarUnlessThereIsOne() {
        let like = CDFilter.like("prop", value: "name")
        #expect(like.bindValues as? [String] == ["name*"])
        #expect(text(like) == #"prop LIKE "name*""#)
        #expect(text(CDFilter.like("stringProperty1", value: "abc*", caseSensitive: false)) == #"stringProperty1 LIKE[c] "abc*""#)
        #expect(text(CDFilterFactory.like("p", value: "x", caseSensitive: true)) == #"p LIKE "x*""#)
    }

    @Test func operatorStrings() throws {
        let caseless = try #require(CDFilter.like("p", value: "x", caseSensitive: false) as? CDLikeFilter)
        #expect(caseless.operatorString() == "like[c]")
        #expect(caseless.caseSensitive == false)
        let equal = try #require(CDFilter.equals("p", value: 1) as? CDEqualFilter)
        #expect(equal.operatorString() == "=")
        #expect(equal.operatorType == CDFilterOperatorEqual)
        #expect(equal.operatorType.rawValue == 1)
        let lessOrEqual = CDOperatorFilter(propertyAndValue: "p", value: 3, operatorType: CDFilterOperatorLessOrEqual)
        #expect(text(lessOrEqual) == "p <= 3")
        let greaterOrEqual = CDOperatorFilter(propertyAndValue: "p", value: 3, operatorType: CDFilterOperatorGreatherOrEqual)
        #expect(text(greaterOrEqual) == "p >= 3")
        #expect(CDFilterOperatorContains.rawValue == 9)
    }

    @Test func containsIsAPlainContains() throws {
        #expect(text(CDFilterFactory.contains("name", value: "b")) == #"name CONTAINS "b""#)
        #expect(text(CDFilterFactory.contains("name", value: "B", caseSensitive: false)) == #"name CONTAINS[c] "B""#)
        let filter = try #require(CDFilterFactory.contains("name", value: "b") as? CDContainsFilter)
        #expect(filter.caseSensitive)
        #expect(filter.bindValues as? [String] == ["b"])
    }

    @Test func inValuesPrintsABraceList() {
        let filter = CDFilter.inValues("name", values: ["Peter"])
        #expect(text(filter) == #"name IN {"Peter"}"#)
        #expect(filter.bindValues?.count == 1)
        #expect((filter.bindValues?.first as? [Any])?.count == 1)
        #expect(text(CDFilterFactory.inValues("intProperty", values: [10, 20])) == "intProperty IN {10, 20}")
    }

    @Test func nullFilters() throws {
        #expect(text(CDFilter.isNull("name")) == "name == nil")
        #expect(text(CDFilter.isNotNull("timeStamp")) == "timeStamp != nil")
        let null = try #require(CDFilter.isNotNull("name") as? CDNullFilter)
        #expect(null.isNull == false)
        #expect(null.bindValues == nil)
        #expect(null.bindNames == nil)
        #expect(null.filteredElement == nil)
    }

    @Test func anyAllAndNot() throws {
        let any = CDFilterFactory.any(CDFilter.equals("prop", value: "xyz"))
        #expect(text(any) == #"ANY prop == "xyz""#)
        #expect(any.property == "prop")
        #expect(any.bindValues as? [String] == ["xyz"])
        #expect(text(CDFilterFactory.all(CDFilter.equals("childs.intProperty", value: 0))) == "ALL childs.intProperty == 0")
        #expect(text(CDFilterFactory.not(CDFilter.equals("name", value: "abc"))) == #"NOT name == "abc""#)
        let wrapped = try #require(CDFilterFactory.all(CDFilter.isNull("x")) as? CDAllFilter)
        #expect(wrapped.filter.property == "x")
        #expect((CDFilterFactory.any(CDFilter.isNull("y")) as? CDAnyFilter)?.filter.property == "y")
    }

    @Test func junctions() {
        let disjunction = CDFilter.disjunction()
        #expect(disjunction.filters == nil)
        #expect(text(disjunction) == "FALSEPREDICATE")
        disjunction.add(CDFilter.equals("name", value: "Peter")).add(CDFilter.equals("name", value: "Milan"))
        #expect(disjunction.filters?.count == 2)
        #expect(text(disjunction) == #"name == "Peter" OR name == "Milan""#)

        let conjunction = CDFilter.conjuction()
        #expect(text(conjunction) == "TRUEPREDICATE")
        conjunction.add(CDFilter.equals("name", value: "abc"))
        #expect(text(conjunction) == #"name == "abc""#)
        conjunction.add(CDFilter.greather("intProperty", value: 5))
        #expect(text(conjunction) == #"name == "abc" AND intProperty > 5"#)
        #expect(text(CDFilterFactory.conjunction().add(CDFilter.isNull("a")).add(CDFilter.isNull("b"))) == "a == nil AND b == nil")
        #expect(CDFilterFactory.disjunction().filters == nil)
    }

    @Test func theBaseFilterHasNoPredicate() {
        #expect(throws: PersistenceError.self) { try CDFilter().tryCreatePredicate() }
        #expect(CDFilter(property: "p").bindValues == nil)
        // The logging form answers nil (what it reports goes to the process-wide handler, tested in ErrorHandlerTests).
        #expect(CDFilter().createPredicate() == nil)
    }
}
