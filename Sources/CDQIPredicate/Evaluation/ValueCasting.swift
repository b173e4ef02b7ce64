import Foundation

/// `CAST(value, "Type")` conversions (§2.6), used for constant folding in the parser and at evaluation.
enum ValueCasting {
    static let knownTypes: Set<String> = ["NSDate", "NSNumber", "NSString", "NSUUID", "NSData", "NSURL", "NSManagedObjectID"]

    /// Converts a scalar; `nil` when the conversion is impossible.
    static func cast(_ value: StoredValue, to type: String) -> StoredValue? {
        if case .null = value { return .null }
        switch type {
        case "NSDate":
            switch value {
            case .integer(let i): return .date(secondsSinceReferenceDate: Double(i))
            case .double(let d): return d.isNaN ? .null : .date(secondsSinceReferenceDate: d)
            case .decimal(let d): return .date(secondsSinceReferenceDate: StoredValue.decimalAsDouble(d))
            case .bool(let b): return .date(secondsSinceReferenceDate: b ? 1 : 0)
            case .date: return value
            default: return nil
            }
        case "NSNumber":
            switch value {
            case .integer, .double, .decimal, .bool: return value
            case .date(let seconds): return .double(seconds)
            case .string(let s):
                let trimmed = s.trimmingCharacters(in: .whitespaces)
                if let i = Int64(trimmed) { return .integer(i) }
                if let d = Double(trimmed) { return d.isNaN ? .null : .double(d) }
                return nil
            default: return nil
            }
        case "NSString":
            return .string(description(of: value))
        case "NSUUID":
            switch value {
            case .uuid: return value
            case .string(let s): return UUID(uuidString: s).map(StoredValue.uuid)
            default: return nil
            }
        case "NSData":
            switch value {
            case .data: return value
            case .string(let s): return Data(base64Encoded: s).map(StoredValue.data)
            default: return nil
            }
        case "NSURL":
            switch value {
            case .uri: return value
            case .string(let s): return URL(string: s).map(StoredValue.uri)
            default: return nil
            }
        case "NSManagedObjectID":
            switch value {
            case .objectID: return value
            case .string(let s): return ObjectReference(uriString: s).map(StoredValue.objectID)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// CDQI's description of a value (`CAST(x, "NSString")`): integers in decimal, doubles in shortest
    /// round-trip form, booleans 1/0, dates as `2020-01-15 00:00:00 +0000`.
    static func description(of value: StoredValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let i): return String(i)
        case .double(let d): return d.description
        case .decimal(let d): return StoredValue.decimalAsDouble(d).description
        case .bool(let b): return b ? "1" : "0"
        case .string(let s): return s
        case .date(let seconds): return dateDescription(seconds)
        case .data(let data): return data.base64EncodedString()
        case .uuid(let uuid): return uuid.uuidString
        case .uri(let url): return url.absoluteString
        case .objectID(let reference): return reference.uriString
        }
    }

    /// `yyyy-MM-dd HH:mm:ss +0000` for seconds since 2001-01-01 UTC (proleptic Gregorian).
    static func dateDescription(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e15 else { return seconds.description }
        let unix = Int64((seconds + 978_307_200).rounded(.down))
        var days = unix / 86_400
        var rest = unix % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ n: Int64, _ width: Int) -> String {
            let s = String(abs(n))
            return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(rest / 3600, 2)):\(pad(rest % 3600 / 60, 2)):\(pad(rest % 60, 2)) +0000"
    }
}
