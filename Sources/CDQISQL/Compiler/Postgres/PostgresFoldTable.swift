import CDQIPredicate
import Foundation

/// The string folding of `[c]`, `[d]` and `[cd]` as PostgreSQL's `cdqi_fold` performs it: a `replace`
/// for each character that folds to several, then one `translate` for the characters that fold to one.
///
/// The tables are made from ``StringFolding`` itself, one character at a time, over ``domain``: the
/// blocks where folding a string is the same as folding each of its characters (checked on every
/// character and on random strings by the tests). That excludes combining marks (Foundation removes a
/// mark after a letter but keeps it at the start, which a per-character table cannot express) and the
/// scripts whose folding was not checked. `cdqi_fold` refuses text with a character outside the domain
/// (SQLSTATE `CQ001`) rather than fold it differently; ASCII text takes a shorter path.
package enum PostgresFoldTable {
    /// Basic Latin, Latin-1 Supplement (letters and symbols), Latin Extended-A and -B, Greek and Coptic,
    /// Cyrillic (without its combining marks), Latin Extended Additional.
    package static let domain: [ClosedRange<UInt32>] = [
        0x01...0x7F, 0xA0...0x24F, 0x370...0x482, 0x48A...0x4FF, 0x1E00...0x1EFF,
    ]

    package static func contains(_ scalar: Unicode.Scalar) -> Bool {
        domain.contains { $0.contains(scalar.value) }
    }

    package struct Table {
        /// Characters that fold to more than one, in code-point order.
        package var replacements: [(Unicode.Scalar, String)] = []
        /// `translate`'s two arguments: each character of `from` becomes the one at the same place in
        /// `to`; the characters of `from` past the end of `to` are removed.
        package var from = ""
        package var to = ""

        /// The folding as `cdqi_fold` does it, for tests to compare with ``StringFolding``.
        package func apply(_ string: String) -> String {
            // `replace` of a one-character string replaces each occurrence of that character.
            var replaced = String.UnicodeScalarView()
            for scalar in string.unicodeScalars {
                if let replacement = replacements.first(where: { $0.0 == scalar })?.1 {
                    replaced.append(contentsOf: replacement.unicodeScalars)
                } else {
                    replaced.append(scalar)
                }
            }
            let result = String(replaced)
            var map: [Unicode.Scalar: Unicode.Scalar?] = [:]
            let toScalars = Array(to.unicodeScalars)
            for (index, scalar) in from.unicodeScalars.enumerated() {
                map[scalar] = index < toScalars.count ? toScalars[index] : nil
            }
            var output = String.UnicodeScalarView()
            for scalar in result.unicodeScalars {
                if let mapped = map[scalar] {
                    if let mapped { output.append(mapped) }
                } else {
                    output.append(scalar)
                }
            }
            return String(output)
        }
    }

    /// The table of one folding (`[c]`, `[d]` or `[cd]`).
    package static func table(for folding: ComparisonOptions) -> Table {
        var table = Table()
        var removed = ""
        for range in domain {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let folded = StringFolding.fold(String(scalar), options: folding)
                let scalars = Array(folded.unicodeScalars)
                if scalars == [scalar] { continue }
                switch scalars.count {
                case 0: removed.unicodeScalars.append(scalar)
                case 1:
                    table.from.unicodeScalars.append(scalar)
                    table.to.unicodeScalars.append(scalars[0])
                default: table.replacements.append((scalar, folded))
                }
            }
        }
        table.from += removed
        return table
    }

    package static let caseInsensitive = table(for: .caseInsensitive)
    package static let diacriticInsensitive = table(for: .diacriticInsensitive)
    package static let both = table(for: [.caseInsensitive, .diacriticInsensitive])
}
