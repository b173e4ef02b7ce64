import CDQIPredicate

extension SQLDialect {
    /// A compiled statement's text as the engine takes it: SQLite's `?` placeholders as they are;
    /// PostgreSQL's numbered `$1`, `$2`, … each cast to the type its value is sent as (`bigint`,
    /// `double precision`, `text`, `bytea`; NULL uncast), so that the server never has to guess a type.
    /// `slotValues` are the constants a parameterized predicate's slots stand for.
    package func statementText(_ fragment: SQLFragment, slotValues: [StoredValue] = []) -> String {
        guard self == .postgres else { return fragment.sql }
        var text = ""
        var number = 0
        for scalar in fragment.sql.unicodeScalars {
            guard scalar == "?", number < fragment.bindings.count else {
                text.unicodeScalars.append(scalar)
                continue
            }
            let binding = fragment.bindings[number]
            number += 1
            text += "$\(number)"
            if let type = Self.postgresType(of: binding, slotValues: slotValues) { text += "::" + type }
        }
        return text
    }

    /// The type a binding is sent as (Core Data's representation: dates as seconds, booleans as 0/1,
    /// UUIDs as their 16 bytes), or `nil` for NULL.
    package static func postgresType(of binding: SQLBinding, slotValues: [StoredValue]) -> String? {
        switch binding {
        case .value(let value): return postgresType(of: value)
        case .slot(let index, _): return postgresType(of: index < slotValues.count ? slotValues[index] : .null)
        case .limit, .offset, .limitOrNull: return "bigint"
        }
    }

    package static func postgresType(of value: StoredValue) -> String? {
        switch value {
        case .null: nil
        case .integer, .bool, .objectID: "bigint"
        case .double, .decimal, .date: "double precision"
        case .string, .uri: "text"
        case .data, .uuid: "bytea"
        }
    }
}

extension SQLDialect {
    /// The placeholder of parameter `number` (from 1) holding a primary key: `?`, or `$1::bigint`.
    package func keyPlaceholder(_ number: Int) -> String {
        self == .sqlite ? "?" : "$\(number)::bigint"
    }

    /// `count` key placeholders, comma-separated, numbered from `first`.
    package func keyPlaceholders(_ count: Int, from first: Int = 1) -> String {
        self == .sqlite ? SQLText.placeholders(count) : (0..<count).map { keyPlaceholder(first + $0) }.joined(separator: ", ")
    }
}
