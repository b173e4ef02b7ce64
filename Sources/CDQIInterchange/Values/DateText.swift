/// Dates as ISO 8601 text, in UTC: `2024-03-01T09:30:00Z`, with up to six fractional digits
/// (`2024-03-01T09:30:00.25Z`) when the date is not a whole second.
///
/// Core Data stores a date as seconds since 2001-01-01 00:00:00 UTC in a `Double`. Writing the
/// fraction to the microsecond and reading it back gives the same `Double` for every date that is a
/// whole number of microseconds (dates made from milliseconds included). The calendar arithmetic is
/// the proleptic Gregorian calendar, done with integers (no time zone database, no locale).
public enum DateText {
    /// Seconds from 1970-01-01 to 2001-01-01.
    static let referenceOffset: Int64 = 978_307_200

    /// The ISO 8601 text of a date, or `nil` when it falls outside the years 0001–9999 (or is not finite).
    public static func format(secondsSinceReferenceDate seconds: Double) -> String? {
        guard seconds.isFinite, abs(seconds) < 4e11 else { return nil }
        var whole = seconds.rounded(.down)
        var micro = ((seconds - whole) * 1_000_000).rounded()
        if micro >= 1_000_000 {
            whole += 1
            micro = 0
        }
        let unix = Int64(whole) + referenceOffset
        let days = floorDivide(unix, 86_400)
        let secondOfDay = unix - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard (1...9999).contains(year) else { return nil }
        var text =
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micro > 0 {
            var digits = pad(Int64(micro), 6)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }

    /// Reads `YYYY-MM-DD` (midnight UTC) or `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z`, `±HH:MM`
    /// or `±HHMM`, as seconds since 2001-01-01 UTC; `nil` when the text is not such a date, or names a
    /// day or time that does not exist.
    public static func parse(_ text: String) -> Double? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take("-"), let month = scanner.digits(2), scanner.take("-"),
            let day = scanner.digits(2), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var secondOfDay: Int64 = 0
        var fraction = 0.0
        var offset: Int64 = 0
        if !scanner.atEnd {
            guard scanner.take("T") || scanner.take("t") || scanner.take(" "),
                let hour = scanner.digits(2), scanner.take(":"), let minute = scanner.digits(2),
                hour < 24, minute < 60
            else { return nil }
            var second: Int64 = 0
            if scanner.take(":") {
                guard let value = scanner.digits(2), value < 60 else { return nil }
                second = value
                if scanner.take(".") || scanner.take(",") {
                    let digits = scanner.digitRun()
                    guard !digits.isEmpty, digits.count <= 9, let value = Double("0." + digits) else { return nil }
                    fraction = value
                }
            }
            secondOfDay = hour * 3600 + minute * 60 + second
            if scanner.take("Z") || scanner.take("z") {
                offset = 0
            } else {
                let sign: Int64
                if scanner.take("+") { sign = 1 } else if scanner.take("-") { sign = -1 } else { return nil }
                guard let hours = scanner.digits(2) else { return nil }
                _ = scanner.take(":")
                guard let minutes = scanner.digits(2), hours < 24, minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
            guard scanner.atEnd else { return nil }
        }
        let unix = days(fromCivil: year, month, day) * 86_400 + secondOfDay - offset
        return Double(unix - referenceOffset) + fraction
    }

    // MARK: Calendar arithmetic (H. Hinnant's days-from-civil algorithms)

    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Reads ASCII date text left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        mutating func take(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue, position < bytes.count, bytes[position] == ascii else { return false }
            position += 1
            return true
        }

        mutating func digits(_ count: Int) -> Int64? {
            guard bytes.count - position >= count else { return nil }
            var value: Int64 = 0
            for byte in bytes[position..<position + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            position += count
            return value
        }

        mutating func digitRun() -> String {
            let start = position
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
    }
}
