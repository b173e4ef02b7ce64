import Testing

@testable import Query

/// Attribute keys are the attributes' descriptions, whether or not the name is kept for next time.
@Suite("Attribute names")
struct AttributeNameTests {
    enum Colors { case red, green }
    enum Shapes { case square, circle }
    enum Single { case only }
    enum Wrapped: Hashable { case key(String) }

    @Test("enum cases, asked twice (the second answer is the kept one), never mixed up between types")
    func enumCases() {
        for _ in 0..<2 {
            #expect(AttributeName.of(Colors.red) == "red")
            #expect(AttributeName.of(Colors.green) == "green")
            #expect(AttributeName.of(Shapes.square) == "square")
            #expect(AttributeName.of(Shapes.circle) == "circle")
            #expect(AttributeName.of(Single.only) == "only")
        }
    }

    @Test("other Hashable values are described every time")
    func otherValues() {
        #expect(AttributeName.of("quantity") == "quantity")
        #expect(AttributeName.of(Wrapped.key("a")) == #"key("a")"#)
        #expect(AttributeName.of(Wrapped.key("b")) == #"key("b")"#)
        #expect(AttributeName.of(true) == "true")
        #expect(AttributeName.of(false) == "false")
        #expect(AttributeName.of(UInt8(7)) == "7")
    }
}
