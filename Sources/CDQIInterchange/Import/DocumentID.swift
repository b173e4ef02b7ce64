/// An `_id` as a dictionary key: two `_id`s are the same only when their Unicode scalars are (Swift's
/// `String` equality treats canonically equivalent strings as equal, so `"é"` (NFC) and `"e\u{301}"`
/// (NFD) would be one `_id`, while JSON and every store treat them as two).
struct DocumentID: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (left: DocumentID, right: DocumentID) -> Bool {
        left.text.unicodeScalars.elementsEqual(right.text.unicodeScalars)
    }

    func hash(into hasher: inout Hasher) {
        for scalar in text.unicodeScalars { hasher.combine(scalar.value) }
        hasher.combine(0xFFFF_FFFF as UInt32)
    }
}
