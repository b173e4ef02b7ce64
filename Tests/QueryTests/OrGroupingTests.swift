import CDQIStore
import Query
import Testing

/// `.or()` combines everything before it with its condition (the README's rule, decided over
/// upstream's code, which combines only the last clause): checked on the sixteen objects of
/// ``TruthTable``, saved (the SQL path) and unsaved (the in-memory path).
@Suite("or grouping")
struct OrGroupingTests {
    @Test("three clauses: where(A).where(B).or(C) is (A AND B) OR C", arguments: [true, false])
    func threeClauses(saved: Bool) throws {
        let query = Entity.query(in: try TruthTable.context(saved: saved))
        let result = try query.where("quantity == 1").where("name == %@", "x").or("department == %@", "d").all()
        #expect(TruthTable.labels(result) == TruthTable.expected { a, b, c, _ in (a && b) || c })
        // Upstream's code would give A AND (B OR C): "1001" (A only) tells them apart.
        #expect(TruthTable.expected { a, b, c, _ in (a && b) || c } != TruthTable.expected { a, b, c, _ in a && (b || c) })
    }

    @Test("three clauses: where(A).or(B).or(C) is A OR B OR C", arguments: [true, false])
    func threeAlternatives(saved: Bool) throws {
        let query = Entity.query(in: try TruthTable.context(saved: saved))
        let result = try query.where("quantity == 1").or("name == 'x'").or("department == 'd'").all()
        #expect(TruthTable.labels(result) == TruthTable.expected { a, b, c, _ in a || b || c })
    }

    @Test("four clauses: where(A).where(B).or(C).where(D) is ((A AND B) OR C) AND D", arguments: [true, false])
    func fourClausesEndingWithWhere(saved: Bool) throws {
        let query = Entity.query(in: try TruthTable.context(saved: saved))
        let result = try query.where("quantity == 1").where("name == 'x'").or("department == 'd'").where("price == 1").all()
        #expect(TruthTable.labels(result) == TruthTable.expected { a, b, c, d in ((a && b) || c) && d })
    }

    @Test("four clauses: where(A).or(B).where(C).or(D) is ((A OR B) AND C) OR D", arguments: [true, false])
    func fourClausesAlternating(saved: Bool) throws {
        let query = Entity.query(in: try TruthTable.context(saved: saved))
        let result = try query.where("quantity == 1").or("name == 'x'").where("department == 'd'").or("price == 1").all()
        #expect(TruthTable.labels(result) == TruthTable.expected { a, b, c, d in ((a || b) && c) || d })
    }

    @Test("four clauses: where(A).where(B).where(C).or(D) is (A AND B AND C) OR D", arguments: [true, false])
    func fourClausesThreeWheres(saved: Bool) throws {
        let query = Entity.query(in: try TruthTable.context(saved: saved))
        let result = try query.where("quantity == 1").where("name == 'x'").where("department == 'd'").or("price == 1").all()
        #expect(TruthTable.labels(result) == TruthTable.expected { a, b, c, d in (a && b && c) || d })
    }

    @Test("the dictionary forms group the same way, a dictionary being the AND of its entries", arguments: [true, false])
    func dictionaryForms(saved: Bool) throws {
        let query = Entity.query(in: try TruthTable.context(saved: saved))
        let first = try query.where([.quantity: 1, .name: "x"]).or([.department: "d"]).all()
        #expect(TruthTable.labels(first) == TruthTable.expected { a, b, c, _ in (a && b) || c })
        let second = try query.where([.quantity: 1]).or([.name: "x", .department: "d"]).all()
        #expect(TruthTable.labels(second) == TruthTable.expected { a, b, c, _ in a || (b && c) })
        let third = try query.where([.quantity: 1]).where([.name: "x"]).or([.department: "d", .price: 1]).all()
        #expect(TruthTable.labels(third) == TruthTable.expected { a, b, c, d in (a && b) || (c && d) })
    }

    @Test("both or(format, args…) and or(format, args: …) compile and mean the same", arguments: [true, false])
    func labeledAndUnlabeled(saved: Bool) throws {
        let query = Entity.query(in: try TruthTable.context(saved: saved))
        let unlabeled = try query.where("quantity == %d", 1).or("name == %@ AND price == %d", "x", 1).all()
        let labeled = try query.where("quantity == %d", 1).or("name == %@ AND price == %d", args: "x", 1).all()
        let expected = TruthTable.expected { a, b, _, d in a || (b && d) }
        #expect(TruthTable.labels(unlabeled) == expected)
        #expect(TruthTable.labels(labeled) == expected)
    }

    @Test("the predicate parenthesizes what comes before or")
    func predicateFormat() throws {
        let context = try TruthTable.context(saved: false)
        let request = try Entity.query(in: context)
            .where("quantity == 1").where("name == %@", "Alice").or("name == %@", "Bob").fetchRequest
        #expect(request.predicate?.predicateFormat == #"(quantity == 1 AND name == "Alice") OR name == "Bob""#)
    }
}
