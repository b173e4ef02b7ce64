import Foundation

/// Wall-clock timing, medians and the process's resident memory.
public enum Measurement {
    /// Seconds `body` takes (monotonic clock).
    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// The CPU time the whole process (every thread) has used so far, in seconds.
    public static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// The median of `values` (the mean of the middle two for an even count); 0 for none.
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The process's resident set size and its peak since the last ``resetPeakResidentSize()``, in
    /// bytes, from `/proc/self/status` (`VmRSS`, `VmHWM`); nil where that file does not exist.
    public static func residentSize() -> (current: Int, peak: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        var current: Int?
        var peak: Int?
        for line in status.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
            if fields[0] == "VmRSS:" { current = kilobytes * 1024 }
            if fields[0] == "VmHWM:" { peak = kilobytes * 1024 }
        }
        guard let current, let peak else { return nil }
        return (current, peak)
    }

    /// Resets the kernel's peak-RSS mark (`VmHWM`) to the current RSS (Linux ≥ 4.0: writing 5 to
    /// `/proc/self/clear_refs`). Returns false where that is not possible.
    @discardableResult
    public static func resetPeakResidentSize() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }
}
