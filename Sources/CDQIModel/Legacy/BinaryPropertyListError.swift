/// Why bytes could not be read as a binary property list; each case names the byte offset at fault.
enum BinaryPropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes do not start with `bplist00`.
    case notBinaryPropertyList
    /// The file is shorter than a header and a trailer.
    case truncated(size: Int)
    /// The 32-byte trailer holds impossible sizes or counts.
    case invalidTrailer(String)
    /// An object's offset (or a read from it) falls outside the object area.
    case outOfBounds(object: Int, offset: Int)
    /// An object reference names an object that does not exist.
    case invalidReference(Int, objectCount: Int)
    /// An object marker byte is not one the format defines.
    case unknownMarker(UInt8, offset: Int)
    /// A container's size runs past the end of the object area.
    case countTooLarge(count: Int, offset: Int)
    /// A container holds itself, directly or through others.
    case referenceCycle(object: Int)
    /// Containers are nested deeper than the reader allows.
    case tooDeep(limit: Int, offset: Int)
    /// A number cannot be represented (an integer wider than 64 bits, a real of odd size).
    case unsupportedNumber(offset: Int)
    /// A string's bytes are not valid ASCII or UTF-16.
    case invalidString(offset: Int)
    /// A dictionary key is not a string.
    case nonStringKey(offset: Int)

    var description: String {
        switch self {
        case .notBinaryPropertyList:
            "not a binary property list (no 'bplist00' header)"
        case .truncated(let size):
            "binary property list truncated: \(size) bytes is too short for a header and trailer"
        case .invalidTrailer(let reason):
            "binary property list trailer is invalid: \(reason)"
        case .outOfBounds(let object, let offset):
            "binary property list object \(object) lies outside the file (offset \(offset))"
        case .invalidReference(let reference, let count):
            "binary property list refers to object \(reference), but holds only \(count) objects"
        case .unknownMarker(let marker, let offset):
            "binary property list has an unknown object marker 0x\(String(marker, radix: 16)) at offset \(offset)"
        case .countTooLarge(let count, let offset):
            "binary property list object at offset \(offset) claims \(count) elements, more than the file holds"
        case .referenceCycle(let object):
            "binary property list object \(object) contains itself (a reference cycle)"
        case .tooDeep(let limit, let offset):
            "binary property list nests containers more than \(limit) deep (at offset \(offset))"
        case .unsupportedNumber(let offset):
            "binary property list has a number that cannot be represented at offset \(offset)"
        case .invalidString(let offset):
            "binary property list has an invalid string at offset \(offset)"
        case .nonStringKey(let offset):
            "binary property list has a dictionary key that is not a string at offset \(offset)"
        }
    }
}
