/// `value` rounded to `digits` decimals and written with exactly that many (`1.50`, not `1.5`): how every
/// benchmark line prints its times and ratios. The PostgreSQL benchmark shares this file.
func fixedDecimals(_ value: Double, digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    } else {
        text += "." + String(repeating: "0", count: digits)
    }
    return text
}
