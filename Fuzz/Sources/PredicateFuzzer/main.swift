import CDQIPredicate

/// libFuzzer entry point: parse, print, re-parse and evaluate arbitrary bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func predicateFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    PredicateFuzzing.parse(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
