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
        // Department and Employee have codeGenerationType="class": they also get their classes, and the
        // model that registers them. TestEntity is manual: a proxy only.
        #expect(
            files.map(\.name) == [
                "DepartmentAttribute.swift", "EmployeeAttribute.swift", "TestEntityAttribute.swift",
                "Department.swift", "Employee.swift", "CompanyModel.swift",
            ])
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
        // Counted outside #expect: inside it this expression took the solver ~200 ms (issue 14, item 9).
        let recentItemsWarnings = generation.diagnostics.filter { $0.message.contains("recentItems") }.count
        #expect(recentItemsWarnings == 1)
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
        // The model file registers every class, so it is written with any selection.
        #expect(generation.files(entities: ["Employee"]).map(\.name) == ["EmployeeAttribute.swift", "Employee.swift", "CompanyModel.swift"])
        #expect(generation.files(entities: ["TestEntity"]).map(\.name) == ["TestEntityAttribute.swift", "CompanyModel.swift"])
        let merged = generation.mergedFile(entities: ["Department", "Employee"])
        #expect(merged.entityNames == ["Department", "Employee"])
        #expect(!merged.contents.contains("TestEntityAttribute"))
        // Employee's proxy refers to Department's; Department's refers to Employee's.
        #expect(generation.proxiesReferenced(outside: ["Employee"]).map(\.proxyName) == ["DepartmentAttribute"])
        #expect(generation.proxiesReferenced(outside: ["Department", "Employee"]).isEmpty)
        #expect(generation.proxiesReferenced(outside: nil).isEmpty)
        // The per-entity file is the merged file's header and import plus that entity's declarations.
        let employee = try TestPaths.expectedText("Company/EmployeeAttribute.swift.expected")
        let employeeProxy = employee.components(separatedBy: "import CoreDataQueryInterface\n\n")[1]
        #expect(merged.contents.contains(employeeProxy.dropLast()))
        // The merged file holds the classes and the model too, with every import they need.
        #expect(merged.contents.contains("import CDQIModel\nimport CDQIStore\nimport CoreDataQueryInterface\nimport Foundation\n"))
        #expect(merged.contents.contains("final class Employee: ManagedObject {"))
        #expect(merged.contents.contains("enum CompanyModel: GeneratedModel {"))
    }

    @Test func libraryWithObjectsFollowsInheritanceAndOnlyRootClassesConform() throws {
        let loaded = try ModelLoader().load(url: TestPaths.fixtures.appendingPathComponent("Library.xcdatamodeld"))
        let options = GeneratorOptions(accessLevel: .public, indentWidth: 2, objectClasses: .all)
        let generation = ProxyGenerator(options: options).generate(loaded.model, modelName: loaded.modelName)
        #expect(generation.mergedFile().contents == (try TestPaths.expectedText("Library/Library+CDQI+objects.swift.expected")))
        // Item → Media → Album and Item → Book: Item and Media are open to subclasses, the leaves final.
        #expect(
            generation.entityClasses.map { "\($0.className):\($0.superclassName ?? "-"):\($0.isFinal)" }
                == ["Album:Media:true", "Book:Item:true", "Item:-:false", "Media:Item:false", "Shelf:-:true", "Tag:-:true"])
        // Only the roots conform to Entity; the sub-entities' classes inherit Item's conformance.
        #expect(
            generation.proxies.filter { !$0.isComposite }.map { $0.conformingClassName ?? "-" }
                == ["-", "-", "Item", "-", "Shelf", "Tag"])
        // Without --objects the model says nothing about code generation: proxies only, as before.
        let plain = ProxyGenerator(options: GeneratorOptions(accessLevel: .public, indentWidth: 2))
            .generate(loaded.model, modelName: loaded.modelName)
        #expect(plain.entityClasses.isEmpty)
        // The model is written all the same (it registers no class).
        #expect(plain.modelTypeName == "LibraryModel")
        #expect(plain.mergedFile().contents == (try TestPaths.expectedText("Library/Library+CDQI.swift.expected")))
    }
}
