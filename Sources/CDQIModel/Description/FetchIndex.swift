/// A fetch index of an entity (`<fetchIndex>`), or a legacy compound index (`<compoundIndex>`).
public struct FetchIndex: Sendable, Hashable, Codable {
    /// One element of an index: a property or an expression, with a kind and an order.
    public struct Element: Sendable, Hashable, Codable {
        /// The index structure.
        public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
            /// An ordinary B-tree index (the model's `Binary`).
            case binary = "Binary"
            /// An R-tree index for range queries.
            case rTree = "RTree"
        }

        /// The indexed property's name, for property elements.
        public var property: String?
        /// The indexed expression, for expression elements.
        public var expression: String?
        /// The expression's result type, for expression elements.
        public var expressionType: String?
        /// The index structure.
        public var kind: Kind = .binary
        /// Whether the element sorts ascending.
        public var isAscending: Bool = true

        /// Creates a property element.
        public init(property: String, kind: Kind = .binary, isAscending: Bool = true) {
            self.property = property
            self.kind = kind
            self.isAscending = isAscending
        }

        /// Creates an expression element.
        public init(expression: String, expressionType: String?, kind: Kind = .binary, isAscending: Bool = true) {
            self.expression = expression
            self.expressionType = expressionType
            self.kind = kind
            self.isAscending = isAscending
        }
    }

    /// The index's name (empty for legacy compound indexes, which have none).
    public var name: String
    /// The elements, in order.
    public var elements: [Element]
    /// Where the index was declared.
    @NotCompared public var location: SourceLocation? = nil

    /// Creates an index.
    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}
