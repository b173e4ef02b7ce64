import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// The in-place comparison change detection uses agrees with `==` on every pair of kinds.
@Suite("Stored values compared in place")
struct StoredValueSameTests {
    @Test("same(a, b) is a == b for every pair, across kinds and within each kind")
    func agreesWithEquality() {
        let long = String(repeating: "a long title, stored out of line ", count: 3)
        let values: [StoredValue] = [
            .null, .integer(0), .integer(7), .integer(-7), .double(0), .double(-0.0), .double(2.5), .double(.nan),
            .bool(false), .bool(true), .date(secondsSinceReferenceDate: 0), .date(secondsSinceReferenceDate: 12.5),
            .string(""), .string("C000123"), .string(long), .string(String(long.dropLast()) + " "),
            .decimal(Decimal(string: "1.25") ?? 0), .decimal(3), .data(Data()), .data(Data([1, 2])),
            .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()), .uri(URL(fileURLWithPath: "/a")),
        ]
        // Copies made apart (the string rebuilt), so that equal values need not share storage.
        let copies = values.map { value -> StoredValue in
            if case .string(let text) = value { return .string(String(text.unicodeScalars)) }
            return value
        }
        for a in values {
            for b in copies {
                let inPlace = withUnsafePointer(to: a) { pa in withUnsafePointer(to: b) { pb in StoredValue.same(pa, pb) } }
                #expect(inPlace == (a == b), "\(a) vs \(b)")
            }
        }
    }
}
