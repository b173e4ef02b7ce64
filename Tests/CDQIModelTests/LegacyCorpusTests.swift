import CDQIModel
import Foundation
import Testing

/// The Xcode 3 models of the corpus load. Expected counts and values were read from the files with
/// Python's `plistlib` (an independent keyed-archive reader), not from this decoder.
@Suite("Legacy corpus models", .enabled(if: TestPaths.corpusModels != nil, TestPaths.corpusAbsent))
struct LegacyCorpusTests {
    /// (bundle, version or nil, entities, attributes, relationships).
    static let expected: [(String, String?, Int, Int, Int)] = [
        ("magicalpanda__MagicalRecord__Recipes.xcdatamodeld", "Recipes", 4, 10, 6),
        ("magicalpanda__MagicalRecord__Recipes.xcdatamodeld", "Recipes 2", 4, 10, 6),
        ("rentzsch__mogenerator__MyModel.xcdatamodeld", nil, 6, 10, 16),
        ("RestKit__RestKit__Data Model.xcdatamodel", nil, 18, 57, 40),
        ("RestKit__RestKit__RKTwitterCoreData.xcdatamodel", nil, 2, 9, 2),
        ("nothirst__TICoreDataSync__TICDSSyncChange.xcdatamodel", nil, 1, 8, 0),
        ("nothirst__TICoreDataSync__Notebook.xcdatamodeld", nil, 2, 5, 2),
        ("fruitsamples__MigrationV2__Migration.xcdatamodeld", "Migration_Old", 3, 7, 4),
        ("fruitsamples__MigrationV2__Migration.xcdatamodeld", "Migration_New", 4, 8, 6),
        ("Automattic__simplenote-ios__Simplenote.xcdatamodeld", "Simplenote", 1, 16, 0),
    ]

    private func load(_ bundle: String, version: String? = nil) throws -> LoadedModel {
        let corpus = try #require(TestPaths.corpusModels)
        return try ModelLoader().load(url: corpus.appendingPathComponent(bundle), version: version)
    }

    @Test("every legacy corpus model loads with the entities and properties it holds")
    func counts() throws {
        for (bundle, version, entities, attributes, relationships) in Self.expected {
            let loaded = try load(bundle, version: version)
            let model = loaded.model
            #expect(model.entities.count == entities, "\(bundle) \(version ?? "")")
            #expect(model.entities.reduce(0) { $0 + $1.attributes.count } == attributes, "\(bundle) \(version ?? "")")
            #expect(model.entities.reduce(0) { $0 + $1.relationships.count } == relationships, "\(bundle) \(version ?? "")")
            #expect(loaded.contentsURL.lastPathComponent == "elements")
            #expect(model.entities.allSatisfy { $0.location == SourceLocation(file: loaded.contentsURL.path, line: 0) })
            #expect(loaded.warnings.allSatisfy { $0.severity == .warning })
        }
    }

    @Test("MagicalRecord Recipes: names, types, defaults, transformers, inverses and delete rules")
    func recipes() throws {
        let loaded = try load("magicalpanda__MagicalRecord__Recipes.xcdatamodeld")
        let model = loaded.model
        #expect(model.versionName == "Recipes")
        #expect(model.entities.map(\.name) == ["Image", "Ingredient", "Recipe", "RecipeType"])
        let recipe = try #require(model.entity(named: "Recipe"))
        #expect(recipe.representedClassName == "Recipe")
        #expect(recipe.attributes.map(\.name) == ["instructions", "name", "overview", "prepTime", "thumbnailImage"])
        let thumbnail = try #require(recipe.attribute(named: "thumbnailImage"))
        #expect(thumbnail.type == .transformable && thumbnail.valueTransformerName == "ImageToDataTransformer")
        let ingredients = try #require(recipe.relationship(named: "ingredients"))
        #expect(ingredients.isToMany && ingredients.deleteRule == .cascade && ingredients.isOptional)
        #expect(ingredients.destinationEntityName == "Ingredient" && ingredients.inverseName == "recipe")
        #expect(ingredients.inverseEntityName == "Ingredient")
        let image = try #require(recipe.relationship(named: "image"))
        #expect(!image.isToMany && image.deleteRule == .cascade && image.minCount == 1 && image.maxCount == 1)

        let ingredient = try #require(model.entity(named: "Ingredient"))
        #expect(ingredient.attribute(named: "name")?.defaultValueString == "Ingredient Name")
        #expect(ingredient.attribute(named: "name")?.isOptional == false)
        #expect(ingredient.attribute(named: "displayOrder")?.type == .integer16)
        #expect(ingredient.attribute(named: "displayOrder")?.defaultValueString == "0")
        #expect(ingredient.relationship(named: "recipe")?.isIndexed == true)

        // The binary model makes Image.recipe required (the 2018 XML re-save does not).
        #expect(model.entity(named: "Image")?.relationship(named: "recipe")?.isOptional == false)
        #expect(model.entity(named: "RecipeType")?.representedClassName == "NSManagedObject")
        #expect(model.entity(named: "RecipeType")?.relationship(named: "recipes")?.deleteRule == .nullify)
    }

    @Test("RestKit Data Model: inheritance, ordered relationships, class names and userInfo")
    func restKitDataModel() throws {
        let loaded = try load("RestKit__RestKit__Data Model.xcdatamodel")
        let model = loaded.model
        #expect(model.entity(named: "Child")?.parentEntityName == "Human")
        #expect(model.entity(named: "Parent")?.parentEntityName == "Human")
        #expect(model.entity(named: "StrictHuman")?.parentEntityName == "Human")
        #expect(model.entity(named: "HoardedCat")?.parentEntityName == "Cat")
        #expect(model.entity(named: "Party")?.parentEntityName == "Event")
        #expect(model.entity(named: "Meeting")?.parentEntityName == "Event")
        #expect(model.entities.filter { $0.parentEntityName != nil }.count == 7)
        let cat = try #require(model.entity(named: "Cat"))
        #expect(cat.representedClassName == "RKCat")
        #expect(
            cat.userInfo == ["primaryKeyAttribute": "railsID", "com.apple.syncservices.ExcludeFromDataChangeAlert": "NO"]
                || cat.userInfo == ["com.apple.syncservices.ExcludeFromDataChangeAlert": "NO", "primaryKeyAttribute": "railsID"])
        #expect(cat.attribute(named: "name")?.defaultValueString == "Kitty Cat!")
        let friends = try #require(model.entity(named: "Human")?.relationship(named: "friendsInTheOrderWeMet"))
        #expect(friends.isToMany && friends.isOrdered && friends.inverseName == "friendsInTheOrderWeMet")
        #expect(friends.minCount == nil && friends.maxCount == nil)
        // Sync Services stores dictionaries in userInfo, which model files cannot express.
        #expect(loaded.warnings.contains { $0.message.contains("userInfo value(s) are dictionaries or arrays") })
    }

    @Test("MigrationV2: minimum and maximum values, and the current version")
    func migration() throws {
        let current = try load("fruitsamples__MigrationV2__Migration.xcdatamodeld")
        #expect(current.model.versionName == "Migration_Old")
        let new = try load("fruitsamples__MigrationV2__Migration.xcdatamodeld", version: "Migration_New")
        let rating = try #require(new.model.entity(named: "Recipe")?.attribute(named: "rating"))
        #expect(rating.minValueString == "0" && rating.maxValueString == "5")
        #expect(new.model.entity(named: "Cuisine") != nil)
        #expect(current.model.entity(named: "Cuisine") == nil)
    }
}
