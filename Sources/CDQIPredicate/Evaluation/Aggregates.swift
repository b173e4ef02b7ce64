import Foundation

/// Aggregates over collections (§3.8): shared by the collection operators and the functions
/// `sum:`, `count:`, `min:`, `max:`, `average:`, `median:`, `mode:`, `stddev:`.
enum Aggregates {
    struct Failure: Error {
        enum Reason { case notNumeric, overflow, unordered }
        var reason: Reason
    }

    /// The exactly rounded sum of doubles (Shewchuk's algorithm, as Python's `math.fsum`).
    static func exactSum(_ values: [Double]) -> Double {
        var partials: [Double] = []
        var special = 0.0
        for value in values {
            if !value.isFinite { special += value; continue }
            var x = value
            var kept = 0
            for var y in partials {
                if abs(x) < abs(y) { swap(&x, &y) }
                let hi = x + y
                let lo = y - (hi - x)
                if lo != 0 {
                    partials[kept] = lo
                    kept += 1
                }
                x = hi
            }
            partials.removeSubrange(kept...)
            partials.append(x)
        }
        if special != 0 || special.isNaN { return special }
        guard var hi = partials.popLast() else { return 0 }
        var lo = 0.0
        while let y = partials.popLast() {
            let x = hi
            hi = x + y
            let yr = hi - x
            lo = y - yr
            if lo != 0 { break }
        }
        // Correct the rounding of half-way cases (as in CPython's fsum).
        if let next = partials.last, (lo < 0 && next < 0) || (lo > 0 && next > 0) {
            let y = lo * 2
            let x = hi + y
            if y == x - hi { hi = x }
        }
        return hi
    }

    static func numbers(_ values: [StoredValue]) throws(Failure) -> [Number] {
        var result: [Number] = []
        result.reserveCapacity(values.count)
        for value in values where !value.isNull {
            guard let n = Number(value) else { throw Failure(reason: .notNumeric) }
            result.append(n)
        }
        return result
    }

    static func count(_ values: [StoredValue]) -> StoredValue {
        .integer(Int64(values.reduce(0) { $0 + ($1.isNull ? 0 : 1) }))
    }

    static func sum(_ values: [StoredValue]) throws(Failure) -> StoredValue {
        let ns = try numbers(values)
        var total: Int64 = 0
        var doubles: [Double] = []
        var allIntegers = true
        for n in ns {
            switch n {
            case .integer(let i):
                if allIntegers {
                    let (s, overflow) = total.addingReportingOverflow(i)
                    if overflow { throw Failure(reason: .overflow) }
                    total = s
                }
                doubles.append(Double(i))
            case .double(let d):
                allIntegers = false
                doubles.append(d)
            }
        }
        if allIntegers { return .integer(total) }
        return Number.double(exactSum(doubles)).stored
    }

    static func average(_ values: [StoredValue]) throws(Failure) -> StoredValue {
        let ns = try numbers(values)
        if ns.isEmpty { return .null }
        return Number.double(exactSum(ns.map(\.doubleValue)) / Double(ns.count)).stored
    }

    static func extreme(_ values: [StoredValue], wantMax: Bool) throws(Failure) -> StoredValue {
        var best: StoredValue?
        for value in values where !value.isNull {
            guard let current = best else { best = value; continue }
            guard let c = ValueComparison.order(.scalar(value), .scalar(current), options: []) else {
                throw Failure(reason: .unordered)
            }
            if (wantMax && c > 0) || (!wantMax && c < 0) { best = value }
        }
        return best ?? .null
    }

    static func median(_ values: [StoredValue]) throws(Failure) -> StoredValue {
        let ns = try numbers(values).sorted { Number.compare($0, $1) ?? 0 < 0 }
        if ns.isEmpty { return .null }
        if ns.count % 2 == 1 { return ns[ns.count / 2].stored }
        return Number.double((ns[ns.count / 2 - 1].doubleValue + ns[ns.count / 2].doubleValue) / 2).stored
    }

    static func mode(_ values: [StoredValue]) -> [StoredValue] {
        var distinct: [(StoredValue, Int)] = []
        for value in values where !value.isNull {
            if let i = distinct.firstIndex(where: { ValueComparison.scalarEqual($0.0, value, options: []) }) {
                distinct[i].1 += 1
            } else {
                distinct.append((value, 1))
            }
        }
        let top = distinct.map(\.1).max() ?? 0
        return distinct.filter { $0.1 == top }.map(\.0)
    }

    static func standardDeviation(_ values: [StoredValue]) throws(Failure) -> StoredValue {
        let ds = try numbers(values).map(\.doubleValue)
        if ds.isEmpty { return .null }
        let mean = exactSum(ds) / Double(ds.count)
        let variance = exactSum(ds.map { ($0 - mean) * ($0 - mean) }) / Double(ds.count)
        return Number.double(variance.squareRoot()).stored
    }
}
