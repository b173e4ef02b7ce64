import CDQIModel
import CDQIPostgres
import CDQIStore
import CoreDataQueryInterface
import Foundation

// The Swift of the README's "Scaling out with PostgreSQL", verbatim (DocumentedSnippetTests checks it),
// over the fixture's classes; ScalingOutTests runs it against a PostgreSQL server.

/// The Company model and the fixture's classes, in the shape `cdqi` generates the model type.
enum CompanyModel: GeneratedModel {
    static var model: ManagedObjectModel { (try? ConcurrencyFixture.model()) ?? ManagedObjectModel(entities: []) }
    static var entityClasses: [(entityName: String, objectClass: ManagedObject.Type)] {
        [("Employee", Employee.self), ("Department", Department.self)]
    }
}

func highEarners(databaseURL: String) throws -> [String?] {
    let container = try PersistentContainer(model: CompanyModel.self, postgresURL: databaseURL)
    return try container.viewContext.from(Employee.self).filter { $0.salary > 100_000 }.order { $0.lastName }.array { $0.lastName }
}
