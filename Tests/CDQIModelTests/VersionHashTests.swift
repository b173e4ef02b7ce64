import Foundation
import Testing

@testable import CDQIModel

/// Core Data version hashes, checked against the worked example of the reference and the published
/// SHA-2 test vectors.
@Suite("Version hashes")
struct VersionHashTests {
    private func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Expected digests: FIPS 180-4 examples, and Python hashlib for the 1,000-byte message.
    @Test("SHA-256 and SHA-512 match independent digests")
    func sha2() {
        #expect(
            hex(SHA2.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SHA2.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex(SHA2.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex(SHA2.sha512(Array("abc".utf8)))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(
            hex(SHA2.sha512(Array(repeating: UInt8(ascii: "a"), count: 1_000)))
                == "67ba5535a46e3f86dbfbed8cbbaf0125c76ed549ff8b0b9e03e0c88cf90fa634fa7b12b47d77b694de488ace8d9a65967dc96df599727d3292a8d9d447709c97")
    }

    @Test("the reference's worked example: SampleModel3's User")
    func workedExample() {
        var user = EntityDescription(name: "User", representedClassName: "User")
        user.attributes = [
            AttributeDescription(name: "name", type: .string),
            AttributeDescription(name: "petName", type: .string, isOptional: true),
        ]
        let hashes = ModelVersionHashes(model: ManagedObjectModel(entities: [user]))
        #expect(
            hashes.entityHashes["User"].map(hex)
                == "6b31f4e97b691d16c4c820bae55f89408d47013bd42151ecfde1eac7fe4be798")
        #expect(
            hashes.digest
                == "0KLB/FnL8roMcgeszeCxnPnvYqnn4VzB2DpFP6csqrDKzLB6fyG5rrVfjY5DtnQxx4355oWuKFublPf2Jo1UWg==")
        #expect(hashes.checksum == "u970QgYhRHEJGIt0zQr1UhuZL2ZJ1KxBS+B7rkAx0ik=")
        #expect(hashes.entitiesWithUncertainHashes.isEmpty)
    }

    @Test(
        "the reference's relationship example: Bookmarks V1's BookmarkEntity",
        .enabled(if: TestPaths.corpusModels != nil, TestPaths.corpusAbsent))
    func relationshipExample() throws {
        let corpus = try #require(TestPaths.corpusModels)
        let model = try ModelLoader().load(
            url: corpus.appendingPathComponent("duckduckgo__BrowserServicesKit__BookmarksModel.xcdatamodeld"),
            version: "BookmarksModel"
        ).model
        let hashes = ModelVersionHashes(model: model)
        #expect(
            hashes.entityHashes["BookmarkEntity"].map(hex)
                == "c37ad9b31a1ce3faf258164444717a730317dee04efa4191d31086d2179f9c20")
    }

    @Test("transient properties and fetched properties do not change a hash; names and flags do")
    func whatCounts() {
        var plain = EntityDescription(name: "E")
        plain.attributes = [AttributeDescription(name: "a", type: .integer64)]
        var withTransient = plain
        var scratch = AttributeDescription(name: "scratch", type: .undefined)
        scratch.isTransient = true
        withTransient.attributes.append(scratch)
        var optional = plain
        optional.attributes[0].isOptional = true
        let hash = { (entity: EntityDescription) in
            ModelVersionHashes(model: ManagedObjectModel(entities: [entity])).entityHashes["E"]
        }
        #expect(hash(plain) == hash(withTransient))
        #expect(hash(plain) != hash(optional))
    }
}
