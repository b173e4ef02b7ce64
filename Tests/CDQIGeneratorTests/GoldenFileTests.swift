import CDQIGenerator
import CDQIModel
import Foundation
import Testing

/// Fixture model in, hand-written Swift out (`Expected/`).
@Suite struct GoldenFileTests {
    @Test func companyWritesOneFilePerEntityInCDQIShape() throws {
        let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Company.xcdatamodeld"))
        let generation = ProxyGenerator().generate(loaded.model, modelName: loaded.modelName)
        let files = generation.files()
        #expect(files.map(\.name) == ["DepartmentAttribute.swift", "EmployeeAttribute.swift", "TestEntityAttribute.swift"])
        for file in files {
            let expected = try TestPaths.expectedText("Company/\(file.name).expected")
            #expect(file.contents == expected, "\(file.name) differs from Expected/Company/\(file.name).expected")
        }
        // The transient `scratch` attribute has no type: left out, with a warning at its line.
        #expect(generation.diagnostics.count == 1)
        let warning = try #require(generation.diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.location?.line == 29)
        #expect(warning.message.contains("'scratch'"))
        #expect(warning.message.contains("Undefined"))
    }

    @Test func libraryMergedPublicWithIndentTwoSubclassesParentProxies() throws {
        let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Library.xcdatamodeld"))
        let options = GeneratorOptions(accessLevel: .public, indentWidth: 2)
        let generation = ProxyGenerator(options: options).generate(loaded.model, modelName: loaded.modelName)
        let file = generation.mergedFile()
        #expect(file.name == "Library+CDQI.swift")
        #expect(file.entityNames == ["Album", "Book", "Item", "Media", "Shelf", "Tag"])
        #expect(file.contents == (try TestPaths.expectedText("Library/Library+CDQI.swift.expected")))
        // The fetched property `recentItems` cannot be queried: one warning names it.
        #expect(generation.diagnostics.map(\.message).filter { $0.contains("recentItems") }.count == 1)
        #expect(generation.diagnostics.count == 1)
    }

    @Test func sameModelGivesSameBytes() throws {
        let url = TestPaths.fixtures.appendingPathComponent("Library.xcdatamodeld")
        let first = ProxyGenerator().generate(try ModelLoader().load(url: url).model, modelName: "Library")
        let second = ProxyGenerator().generate(try ModelLoader().load(url: url).model, modelName: "Library")
        #expect(first.files() == second.files())
        #expect(first.mergedFile() == second.mergedFile())
    }

    @Test func selectingEntitiesWritesOnlyThose() throws {
        let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Company.xcdatamodeld"))
        let generation = ProxyGenerator().generate(loaded.model, modelName: loaded.modelName)
        #expect(generation.files(entities: ["Employee"]).map(\.name) == ["EmployeeAttribute.swift"])
        let merged = generation.mergedFile(entities: ["Department", "Employee"])
        #expect(merged.entityNames == ["Department", "Employee"])
        #expect(!merged.contents.contains("TestEntityAttribute"))
        // Employee's proxy refers to Department's; Department's refers to Employee's.
        #expect(generation.proxiesReferenced(outside: ["Employee"]).map(\.proxyName) == ["DepartmentAttribute"])
        #expect(generation.proxiesReferenced(outside: ["Department", "Employee"]).isEmpty)
        #expect(generation.proxiesReferenced(outside: nil).isEmpty)
        // The per-entity file is the merged file's header and import plus that entity's declarations.
        let employee = try TestPaths.expectedText("Company/EmployeeAttribute.swift.expected")
        #expect(merged.contents.hasSuffix(employee.components(separatedBy: "import CoreDataQueryInterface\n\n")[1]))
    }
}
