/// The `userInfo` entries of a model element, in file order.
///
/// Keys and values are strings in model files. Keys are unique; a key repeated in the file keeps its
/// last value, as Core Data's dictionary would.
public struct UserInfo: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The entries, in the order they first appeared.
    public private(set) var entries: [(key: String, value: String)] = []

    /// Creates an empty dictionary.
    public init() {}

    /// Creates a dictionary from literal entries.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (key, value) in elements { self[key] = value }
    }

    /// The value for `key`, or `nil`.
    public subscript(key: String) -> String? {
        get { entries.first(where: { $0.key == key })?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    /// Whether there are no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// The number of entries.
    public var count: Int { entries.count }

    /// Iterates over the entries in file order.
    public func makeIterator() -> IndexingIterator<[(key: String, value: String)]> {
        entries.makeIterator()
    }

    public static func == (lhs: UserInfo, rhs: UserInfo) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}

extension UserInfo: Codable {
    /// Decodes the entries from an array of `[key, value]` pairs, keeping their order.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init()
        while !container.isAtEnd {
            let pair = try container.decode([String].self)
            guard pair.count == 2 else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a userInfo entry is a [key, value] pair")
            }
            self[pair[0]] = pair[1]
        }
    }

    /// Encodes the entries as an array of `[key, value]` pairs, in order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for entry in entries { try container.encode([entry.key, entry.value]) }
    }
}
