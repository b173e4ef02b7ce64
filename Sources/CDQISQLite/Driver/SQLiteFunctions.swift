import CDQIPredicate
import CDQISQL
import CSQLite
import Foundation

/// The SQL functions and collations the SQL compiler uses for what SQLite cannot do itself, backed by
/// the same Swift code as the in-memory evaluator (`StringFolding`, `StringMatching`, `LikeMatcher`,
/// `RegexMatcher`), so the two back ends cannot drift.
///
/// Every string function takes the comparison options as an integer (the raw value of
/// `ComparisonOptions`) and returns 0 for an operand that is not text (NULL included): SQL never turns a
/// number into text here (`pages BEGINSWITH '1'` is false in both back ends).
///
/// | function | meaning |
/// | --- | --- |
/// | `cdqi_fold(text, options)` | the folded string (non-text values pass through unchanged) |
/// | `cdqi_beginswith(text, prefix, options)` | `BEGINSWITH` |
/// | `cdqi_endswith(text, suffix, options)` | `ENDSWITH` |
/// | `cdqi_contains(text, needle, options)` | `CONTAINS` on strings |
/// | `cdqi_like(text, pattern, options)` | `LIKE` with `*` and `?` |
/// | `cdqi_matches(text, pattern, options)` | `MATCHES`, a whole-string ICU regular expression |
/// | `cdqi_sum(x)`, `cdqi_avg(x)` | aggregates: the exactly rounded sum (``ExactSum``) and average of the non-NULL values; NULL over none |
///
/// Core Data's own `NSCoreDataDATriggerUpdatedAffectedObjectValue`,
/// `NSCoreDataDATriggerInsertUpdatedAffectedObjectValue` and `NSCoreDataNow` are registered too, so that
/// the derived-attribute triggers of Apple-written stores run when such a store is written to.
///
/// Collations: `cdqi_nocase` (`caseInsensitiveCompare:`), `cdqi_localized`
/// (`localizedCompare:`), `cdqi_localized_nocase` (`localizedCaseInsensitiveCompare:`) and
/// `cdqi_localized_standard` (`localizedStandardCompare:`).
public enum SQLiteFunctions {
    /// Registers the functions and collations on a connection.
    public static func register(on connection: SQLiteConnection) throws(SQLiteError) {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let functions: [(String, Int32, @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void)] = [
            ("cdqi_fold", 2, fold),
            ("cdqi_beginswith", 3, beginsWith),
            ("cdqi_endswith", 3, endsWith),
            ("cdqi_contains", 3, contains),
            ("cdqi_like", 3, like),
            ("cdqi_matches", 3, matches),
        ]
        for (name, arity, function) in functions {
            let code = sqlite3_create_function_v2(connection.handle, name, arity, flags, nil, function, nil, nil, nil)
            if code != SQLITE_OK { throw SQLiteError(connection: connection.handle, code: code, sql: nil) }
        }
        // Exactly rounded sums and averages of doubles, so `@sum`/`@avg` agree with the evaluator to the last bit.
        for (name, final) in [("cdqi_sum", finalSum), ("cdqi_avg", finalAverage)] {
            let code = sqlite3_create_function_v2(
                connection.handle, name, 1, flags, nil, nil, stepCollect, final, nil)
            if code != SQLITE_OK { throw SQLiteError(connection: connection.handle, code: code, sql: nil) }
        }
        // Apple stores with derived attributes keep them current with triggers that call Core Data's
        // own functions; writing to such a store fails with "no such function" unless they exist.
        // The change callbacks only notify Apple's contexts, so they do nothing here.
        let appleFunctions: [(String, Int32, @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void)] = [
            ("NSCoreDataDATriggerUpdatedAffectedObjectValue", -1, returnNull),
            ("NSCoreDataDATriggerInsertUpdatedAffectedObjectValue", -1, returnNull),
            ("NSCoreDataNow", 0, coreDataNow),
        ]
        for (name, arity, function) in appleFunctions {
            // Innocuous: the store's triggers call them, and trusted_schema=OFF allows only such functions there.
            let code = sqlite3_create_function_v2(
                connection.handle, name, arity, SQLITE_UTF8 | SQLITE_INNOCUOUS, nil, function, nil, nil, nil)
            if code != SQLITE_OK { throw SQLiteError(connection: connection.handle, code: code, sql: nil) }
        }
        let collations: [(String, @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32)] = [
            ("cdqi_nocase", compareNoCase),
            ("cdqi_localized", compareLocalized),
            ("cdqi_localized_nocase", compareLocalizedNoCase),
            ("cdqi_localized_standard", compareLocalizedStandard),
        ]
        for (name, collation) in collations {
            let code = sqlite3_create_collation_v2(connection.handle, name, SQLITE_UTF8, nil, collation, nil)
            if code != SQLITE_OK { throw SQLiteError(connection: connection.handle, code: code, sql: nil) }
        }
    }
}

// MARK: - Functions

/// The text of an argument, or `nil` when it is not text.
private func text(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> String? {
    guard let value = arguments?[index], sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
    let count = Int(sqlite3_value_bytes(value))
    guard let bytes = sqlite3_value_text(value) else { return "" }
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
}

private func options(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> ComparisonOptions {
    guard let value = arguments?[index] else { return [] }
    return ComparisonOptions(rawValue: Int(sqlite3_value_int64(value)))
}

/// Runs a two-string test; 0 when either operand is not text.
private func test(
    _ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?,
    _ body: (String, String, ComparisonOptions) -> Bool
) {
    guard let left = text(arguments, 0), let right = text(arguments, 1) else {
        sqlite3_result_int(context, 0)
        return
    }
    sqlite3_result_int(context, body(left, right, options(arguments, 2)) ? 1 : 0)
}

private let fold: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in
    guard let string = text(arguments, 0) else {
        sqlite3_result_value(context, arguments?[0])
        return
    }
    var folded = StringFolding.fold(string, options: options(arguments, 1))
    folded.withUTF8 { buffer in
        buffer.withMemoryRebound(to: CChar.self) { chars in
            guard let base = chars.baseAddress else { return sqlite3_result_text(context, "", 0, nil) }
            sqlite3_result_text(context, base, Int32(chars.count), sqliteTransient)
        }
    }
}

private let beginsWith: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in
    if let result = asciiBeginsWith(arguments) {
        sqlite3_result_int(context, result ? 1 : 0)
        return
    }
    test(context, arguments) { StringMatching.beginsWith($0, $1, options: $2) }
}

/// `BEGINSWITH` straight on SQLite's bytes when the prefix is ASCII text and so is the text's start
/// (the prefix's length and one byte more), or `nil` to take the general path. ASCII text is left as it
/// is by normalization and by width and diacritic folding, and case folding maps only A–Z to a–z in
/// it, so the answer equals folding first; what follows cannot change how that start folds (an ASCII
/// character is a starter: only a combining mark right after it could join it under a composing
/// normalization, and that byte goes the general way). Without building two Strings and folding them
/// per row, a case-insensitive BEGINSWITH over 100k rows costs a third less.
private func asciiBeginsWith(_ arguments: UnsafeMutablePointer<OpaquePointer?>?) -> Bool? {
    guard let left = arguments?[0], let right = arguments?[1],
        sqlite3_value_type(left) == SQLITE_TEXT, sqlite3_value_type(right) == SQLITE_TEXT
    else { return nil }
    let leftCount = Int(sqlite3_value_bytes(left))
    let rightCount = Int(sqlite3_value_bytes(right))
    guard let leftBytes = sqlite3_value_text(left), let rightBytes = sqlite3_value_text(right) else { return nil }
    // One OR over the bytes that matter, tested once (no branch per byte).
    var combined: UInt8 = 0
    for index in 0..<min(leftCount, rightCount + 1) { combined |= leftBytes[index] }
    for index in 0..<rightCount { combined |= rightBytes[index] }
    if combined >= 0x80 { return nil }
    if rightCount == 0 || rightCount > leftCount { return false }  // an empty prefix never matches
    let options = options(arguments, 2)
    let foldsCase = options.contains(.caseInsensitive) && !options.contains(.normalized)
    for index in 0..<rightCount {
        var a = leftBytes[index]
        var b = rightBytes[index]
        if foldsCase {
            if a >= 0x41 && a <= 0x5A { a += 0x20 }
            if b >= 0x41 && b <= 0x5A { b += 0x20 }
        }
        if a != b { return false }
    }
    return true
}

private let endsWith: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in test(context, arguments) { StringMatching.endsWith($0, $1, options: $2) }
}

private let contains: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in test(context, arguments) { StringMatching.contains($0, $1, options: $2) }
}

private let like: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in test(context, arguments) { LikeMatcher.matches($0, pattern: $1, options: $2) }
}

private let matches: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in test(context, arguments) { RegexMatcher.matches($0, pattern: $1, options: $2) }
}

private let returnNull: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, _ in sqlite3_result_null(context)
}

/// The current time as Core Data stores dates: seconds since 2001-01-01.
private let coreDataNow: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, _ in sqlite3_result_double(context, Date().timeIntervalSinceReferenceDate)
}

// MARK: - Aggregates

/// The values an aggregate has seen, kept between steps in SQLite's per-call aggregate context.
private final class CollectedValues {
    var values: [Double] = []
}

/// The collected values of an aggregate call; created on its first step.
private func collected(_ context: OpaquePointer?, create: Bool) -> CollectedValues? {
    let size = Int32(MemoryLayout<UnsafeMutableRawPointer?>.size)
    guard let slot = sqlite3_aggregate_context(context, create ? size : 0) else { return nil }
    let pointer = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    if let existing = pointer.pointee {
        return Unmanaged<CollectedValues>.fromOpaque(existing).takeUnretainedValue()
    }
    guard create else { return nil }
    let values = CollectedValues()
    pointer.pointee = Unmanaged.passRetained(values).toOpaque()
    return values
}

/// Takes the collected values out of the context and releases them (SQLite calls the final once).
private func takeCollected(_ context: OpaquePointer?) -> [Double]? {
    guard let slot = sqlite3_aggregate_context(context, 0) else { return nil }
    let pointer = slot.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    guard let existing = pointer.pointee else { return nil }
    pointer.pointee = nil
    return Unmanaged<CollectedValues>.fromOpaque(existing).takeRetainedValue().values
}

private let stepCollect: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
    context, _, arguments in
    guard let value = arguments?[0] else { return }
    let type = sqlite3_value_type(value)
    guard type == SQLITE_INTEGER || type == SQLITE_FLOAT, let values = collected(context, create: true) else { return }
    values.values.append(sqlite3_value_double(value))
}

private let finalSum: @convention(c) (OpaquePointer?) -> Void = { context in
    guard let values = takeCollected(context), !values.isEmpty else { return sqlite3_result_null(context) }
    sqlite3_result_double(context, ExactSum.of(values))
}

private let finalAverage: @convention(c) (OpaquePointer?) -> Void = { context in
    guard let values = takeCollected(context), !values.isEmpty else { return sqlite3_result_null(context) }
    sqlite3_result_double(context, ExactSum.of(values) / Double(values.count))
}

// MARK: - Collations

private func strings(
    _ leftCount: Int32, _ left: UnsafeRawPointer?, _ rightCount: Int32, _ right: UnsafeRawPointer?
)
    -> (String, String)
{
    func decode(_ count: Int32, _ pointer: UnsafeRawPointer?) -> String {
        guard let pointer, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(count)), as: UTF8.self)
    }
    return (decode(leftCount, left), decode(rightCount, right))
}

private func order(_ result: ComparisonResult) -> Int32 {
    switch result {
    case .orderedAscending: -1
    case .orderedSame: 0
    case .orderedDescending: 1
    }
}

private let compareNoCase: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    _, leftCount, left, rightCount, right in
    let (l, r) = strings(leftCount, left, rightCount, right)
    let (a, b) = (StringFolding.fold(l, options: .caseInsensitive), StringFolding.fold(r, options: .caseInsensitive))
    if a.unicodeScalars.elementsEqual(b.unicodeScalars) { return 0 }
    return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1
}

private let compareLocalized: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    _, leftCount, left, rightCount, right in
    let (l, r) = strings(leftCount, left, rightCount, right)
    return order(l.localizedCompare(r))
}

private let compareLocalizedNoCase: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    _, leftCount, left, rightCount, right in
    let (l, r) = strings(leftCount, left, rightCount, right)
    return order(l.localizedCaseInsensitiveCompare(r))
}

private let compareLocalizedStandard: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
    _, leftCount, left, rightCount, right in
    let (l, r) = strings(leftCount, left, rightCount, right)
    return order(l.localizedStandardCompare(r))
}
