/// The exactly rounded sum of doubles (Shewchuk's algorithm, as Python's `math.fsum`): the result does
/// not depend on the order of the values (`0.1 + 0.2 + 0.3` is `0.6`, not `0.6000000000000001`).
///
/// The evaluator's `@sum`/`@avg` use it, and so do the store's `cdqi_sum`/`cdqi_avg` SQL aggregates, so
/// both back ends give the same last bit (predicate-language.md §3.8).
public enum ExactSum {
    /// The exactly rounded sum of `values`: the exact sum, rounded once to the nearest `Double`.
    public static func of(_ values: [Double]) -> Double {
        var partials: [Double] = []
        var special = 0.0
        for value in values {
            if !value.isFinite {
                special += value
                continue
            }
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

}
