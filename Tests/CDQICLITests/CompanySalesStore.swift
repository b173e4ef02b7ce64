import Foundation
import Testing

/// A store of the Company fixture holding one department, Sales, written by `cdqi import`.
enum CompanySalesStore {
    /// The Company fixture bundle.
    static let bundle = CommandRunner.packageRoot.appendingPathComponent("Fixtures/Company.xcdatamodeld").path

    /// Writes the store into `folder` as `company.sqlite` and returns its path.
    static func make(in folder: TemporaryFolder) throws -> String {
        let document = folder.url.appendingPathComponent("company.json")
        try Data(#"{"Department": [{"_id": "d", "name": "Sales"}]}"#.utf8).write(to: document)
        let store = folder.url.appendingPathComponent("company.sqlite").path
        #expect(try CommandRunner.run(["import", bundle, store, document.path]).status == 0)
        return store
    }
}
