import CDQITestSupport
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// Random sequences of inserts, moves, deletes, saves and rollbacks, checked against a plain model of
/// the expected graph (an independent oracle), in memory and in the file after reopening.
@Suite("Context randomized operations")
struct ContextRandomizedTests {
    /// The expected graph: departments by name; employees by first name with salary and department.
    struct Graph: Equatable {
        struct Employee: Equatable {
            var salary: Int
            var department: String?
        }
        var departments: Set<String> = []
        var employees: [String: Employee] = [:]
    }

    @Test("the context and the file agree with the oracle", arguments: Array(1...8) as [UInt64])
    func randomOperations(seed: UInt64) throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Company")
        defer { cleanUp() }
        try Self.randomOperations(
            seed: seed, coordinator: coordinator,
            stored: {
                // The file, read with plain SQL through another connection.
                var stored = Graph()
                for row in try ContextTestSupport.rows(file: url, "SELECT ZNAME FROM ZDEPARTMENT") { stored.departments.insert(row[0]) }
                for row in try ContextTestSupport.rows(
                    file: url,
                    """
                    SELECT e.ZFIRSTNAME, e.ZSALARY, d.ZNAME FROM ZEMPLOYEE e LEFT JOIN ZDEPARTMENT d ON d.Z_PK = e.ZDEPARTMENT
                    """)
                {
                    stored.employees[row[0]] = Graph.Employee(salary: Int(row[1]) ?? -1, department: row[2] == "NULL" ? nil : row[2])
                }
                #expect(
                    try ContextTestSupport.rows(
                        file: url,
                        "SELECT COUNT(*) FROM ZEMPLOYEE WHERE ZDEPARTMENT IS NOT NULL AND ZDEPARTMENT NOT IN (SELECT Z_PK FROM ZDEPARTMENT)"
                    ) == [["0"]])
                #expect(
                    try ContextTestSupport.rows(
                        file: url,
                        """
                        SELECT (SELECT MAX(Z_PK) FROM ZEMPLOYEE) <= (SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Employee'), \
                        (SELECT MIN(Z_OPT) FROM ZEMPLOYEE) >= 1
                        """
                    ).first?.map { $0 == "NULL" ? "1" : $0 } == ["1", "1"])
                return stored
            },
            reopen: { try PersistentStoreCoordinator(model: coordinator.model, url: url) })
    }

    /// Runs 250 random operations on a context of `coordinator`, checking the objects against the
    /// oracle along the way, then the store (`stored` reads it back with plain SQL) and a context of a
    /// fresh coordinator on the same store (`reopen`).
    static func randomOperations(
        seed: UInt64, coordinator: PersistentStoreCoordinator, stored: () throws -> Graph,
        reopen: () throws -> PersistentStoreCoordinator
    ) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        var random = SeededGenerator(seed: seed)
        var current = Graph(), committed = Graph()
        var objects: [String: ManagedObject] = [:], committedObjects: [String: ManagedObject] = [:]
        var counter = 0

        func pick(_ names: some Collection<String>) -> String? {
            names.isEmpty ? nil : names.sorted()[random.below(names.count)]
        }
        for _ in 0..<250 {
            counter += 1
            switch random.below(20) {
            case 0...2:
                let name = "D\(counter)"
                objects[name] = try ContextTestSupport.insert(context, "Department", ["name": name])
                current.departments.insert(name)
            case 3...6:
                let name = "E\(counter)", salary = random.below(1000)
                let department = random.below(4) == 0 ? nil : pick(current.departments)
                objects[name] = try ContextTestSupport.insert(
                    context, "Employee",
                    [
                        "firstName": name, "lastName": "L", "salary": salary, "department": department.flatMap { objects[$0] },
                    ])
                current.employees[name] = Graph.Employee(salary: salary, department: department)
            case 7...9:
                guard let employee = pick(current.employees.keys), let object = objects[employee] else { continue }
                let department = random.below(4) == 0 ? nil : pick(current.departments)
                if let department, random.below(2) == 0, let target = objects[department] {
                    try target.addObject(object, toKey: "employees")
                } else if department == nil, random.below(2) == 0,
                    let old = current.employees[employee]?.department, let source = objects[old]
                {
                    try source.removeObject(object, fromKey: "employees")
                } else {
                    try object.setValue(department.flatMap { objects[$0] }, forKey: "department")
                }
                current.employees[employee]?.department = department
            case 10...11:
                guard let employee = pick(current.employees.keys), let object = objects[employee] else { continue }
                let salary = random.below(1000)
                try object.setValue(salary, forKey: "salary")
                current.employees[employee]?.salary = salary
            case 12:
                guard let employee = pick(current.employees.keys), let object = objects[employee] else { continue }
                try context.delete(object)
                current.employees[employee] = nil
                objects[employee] = nil
            case 13:
                guard let department = pick(current.departments), let object = objects[department] else { continue }
                try context.delete(object)  // Cascade: its employees go too
                current.departments.remove(department)
                objects[department] = nil
                for (name, employee) in current.employees where employee.department == department {
                    current.employees[name] = nil
                    objects[name] = nil
                }
            case 14...17:
                try context.save()
                committed = current
                committedObjects = objects
            case 18:
                context.rollback()
                current = committed
                objects = committedObjects
            default:
                // The in-memory graph matches the oracle, both sides of every relationship.
                try #require(try Self.graph(of: objects) == current, "seed \(seed)")
            }
        }
        try context.save()
        #expect(try Self.graph(of: objects) == current)

        #expect(try stored() == current, "seed \(seed)")

        // A fresh coordinator reads the same graph through the objects' relationships.
        let fresh = ManagedObjectContext(coordinator: try reopen())
        var reread: [String: ManagedObject] = [:]
        for (name, object) in objects {
            guard let id = fresh.objectID(forURIString: object.objectID.uriString) else { continue }
            reread[name] = try fresh.existingObject(with: id)
        }
        #expect(try Self.graph(of: reread) == current, "seed \(seed)")
    }

    @Test("many-to-many pairs in memory and in the join table agree with the oracle", arguments: Array(1...6) as [UInt64])
    func randomManyToMany(seed: UInt64) throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Developers")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        var random = SeededGenerator(seed: seed &* 7919)
        struct Pair: Hashable { var developer: String, language: String }
        var pairs: Set<Pair> = [], committedPairs: Set<Pair> = []
        var objects: [String: ManagedObject] = [:], committedObjects: [String: ManagedObject] = [:]
        func pick(_ prefix: String) -> String? {
            let names = objects.keys.filter { $0.hasPrefix(prefix) }.sorted()
            return names.isEmpty ? nil : names[random.below(names.count)]
        }
        for step in 0..<200 {
            switch random.below(12) {
            case 0:
                objects["dev\(step)"] = try ContextTestSupport.insert(context, "Developer", ["firstName": "dev\(step)", "lastName": "x"])
            case 1:
                objects["lang\(step)"] = try ContextTestSupport.insert(context, "Language", ["name": "lang\(step)"])
            case 2...5:
                guard let developer = pick("dev"), let language = pick("lang"),
                    let d = objects[developer], let l = objects[language]
                else { continue }
                if random.below(2) == 0 { try d.addObject(l, toKey: "languages") } else { try l.addObject(d, toKey: "developers") }
                pairs.insert(Pair(developer: developer, language: language))
            case 6...7:
                guard
                    let pair = pairs.sorted(by: { ($0.developer, $0.language) < ($1.developer, $1.language) })
                        .dropFirst(random.below(max(pairs.count, 1))).first,
                    let d = objects[pair.developer], let l = objects[pair.language]
                else { continue }
                if random.below(2) == 0 { try d.removeObject(l, fromKey: "languages") } else { try l.removeObject(d, fromKey: "developers") }
                pairs.remove(pair)
            case 8:
                guard let name = pick(random.below(2) == 0 ? "dev" : "lang"), let object = objects[name] else { continue }
                try context.delete(object)  // Nullify on both sides
                objects[name] = nil
                pairs = pairs.filter { $0.developer != name && $0.language != name }
            case 9...10:
                try context.save()
                committedPairs = pairs
                committedObjects = objects
            default:
                context.rollback()
                pairs = committedPairs
                objects = committedObjects
            }
        }
        try context.save()
        var inMemory: Set<Pair> = []
        for (name, object) in objects where name.hasPrefix("dev") {
            for language in try object.objects(forKey: "languages") {
                let languageName = try language.value(forKey: "name") as? String ?? "?"
                inMemory.insert(Pair(developer: name, language: languageName))
                #expect(try language.objects(forKey: "developers").contains(object), "both sides, seed \(seed)")
            }
        }
        #expect(inMemory == pairs, "seed \(seed)")
        var stored: Set<Pair> = []
        for row in try ContextTestSupport.rows(
            file: url,
            """
            SELECT d.ZFIRSTNAME, l.ZNAME FROM Z_1LANGUAGES j JOIN ZDEVELOPER d ON d.Z_PK = j.Z_1DEVELOPERS \
            JOIN ZLANGUAGE l ON l.Z_PK = j.Z_2LANGUAGES
            """)
        {
            stored.insert(Pair(developer: row[0], language: row[1]))
        }
        #expect(stored == pairs, "seed \(seed)")
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM Z_1LANGUAGES") == [["\(pairs.count)"]])
    }

    @Test("ordered relationships keep the oracle's order in memory and in Z_FOK_ keys", arguments: Array(1...6) as [UInt64])
    func randomOrdered(seed: UInt64) throws {
        let (coordinator, url, cleanUp) = try ContextTestSupport.fileCoordinator("Library")
        defer { cleanUp() }
        let context = ManagedObjectContext(coordinator: coordinator)
        var random = SeededGenerator(seed: seed &* 104_729)
        var shelves: [String: [String]] = [:], committedShelves: [String: [String]] = [:]
        var loose: Set<String> = [], committedLoose: Set<String> = []
        var objects: [String: ManagedObject] = [:], committedObjects: [String: ManagedObject] = [:]
        func pick(_ names: some Collection<String>) -> String? {
            names.isEmpty ? nil : names.sorted()[random.below(names.count)]
        }
        func shelf(of book: String) -> String? { shelves.first { $0.value.contains(book) }?.key }
        for step in 0..<200 {
            switch random.below(12) {
            case 0:
                objects["S\(step)"] = try ContextTestSupport.insert(context, "Shelf", ["name": "S\(step)"])
                shelves["S\(step)"] = []
            case 1...2:
                let name = "B\(step)"
                objects[name] = try ContextTestSupport.insert(
                    context, "Book",
                    [
                        "title": name, "isbn": String(format: "%010d", step), "createdAt": Date(timeIntervalSinceReferenceDate: 0),
                    ])
                loose.insert(name)
            case 3...5:
                guard let book = pick(objects.keys.filter { $0.hasPrefix("B") }), let target = pick(shelves.keys),
                    let bookObject = objects[book], let shelfObject = objects[target]
                else { continue }
                let old = shelf(of: book)
                let viaInverse = random.below(2) == 1
                // Setting the to-one to the shelf it is already on changes nothing (it keeps its place).
                if viaInverse && old == target { continue }
                if let old { shelves[old]?.removeAll { $0 == book } }
                loose.remove(book)
                if !viaInverse {
                    let index = random.below((shelves[target]?.count ?? 0) + 1)
                    try shelfObject.insertObject(bookObject, at: index, forKey: "items")
                    shelves[target]?.insert(book, at: index)
                } else {
                    try bookObject.setValue(shelfObject, forKey: "shelf")
                    shelves[target]?.append(book)
                }
            case 6:
                guard let book = pick(objects.keys.filter { $0.hasPrefix("B") }), let old = shelf(of: book),
                    let bookObject = objects[book]
                else { continue }
                try objects[old]?.removeObject(bookObject, fromKey: "items")
                shelves[old]?.removeAll { $0 == book }
                loose.insert(book)
            case 7:
                guard let book = pick(objects.keys.filter { $0.hasPrefix("B") }), let bookObject = objects[book] else { continue }
                try context.delete(bookObject)
                if let old = shelf(of: book) { shelves[old]?.removeAll { $0 == book } }
                loose.remove(book)
                objects[book] = nil
            case 8...10:
                try context.save()
                (committedShelves, committedLoose, committedObjects) = (shelves, loose, objects)
            default:
                context.rollback()
                (shelves, loose, objects) = (committedShelves, committedLoose, committedObjects)
            }
        }
        try context.save()
        for (name, titles) in shelves {
            let items = try objects[name]?.objects(forKey: "items") ?? []
            #expect(try items.map { try $0.value(forKey: "title") as? String ?? "?" } == titles, "\(name), seed \(seed)")
        }
        var stored: [String: [String]] = [:]
        var keys: [String: [String]] = [:]
        for row in try ContextTestSupport.rows(
            file: url, "SELECT s.ZNAME, i.ZTITLE, i.Z_FOK_SHELF FROM ZSHELF s LEFT JOIN ZITEM i ON i.ZSHELF = s.Z_PK ORDER BY s.ZNAME, i.Z_FOK_SHELF")
        {
            stored[row[0], default: []] += row[1] == "NULL" ? [] : [row[1]]
            keys[row[0], default: []] += row[2] == "NULL" ? [] : [row[2]]
        }
        #expect(stored == shelves, "seed \(seed)")
        for (name, values) in keys {
            #expect(values == values.indices.map { String(2048 + 1024 * $0) }, "\(name), seed \(seed)")
        }
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM ZITEM WHERE ZSHELF IS NULL AND Z_FOK_SHELF IS NOT NULL") == [["0"]])
        #expect(try ContextTestSupport.rows(file: url, "SELECT COUNT(*) FROM ZITEM WHERE ZSHELF IS NULL") == [["\(loose.count)"]])
    }

    /// The graph the objects show, checking that both sides of each relationship agree.
    private static func graph(of objects: [String: ManagedObject]) throws -> Graph {
        var graph = Graph()
        for (name, object) in objects where object.entity.name == "Department" {
            graph.departments.insert(name)
            for member in try object.objects(forKey: "employees") {
                let memberName = try member.value(forKey: "firstName") as? String ?? "?"
                #expect(try member.object(forKey: "department") === object, "\(memberName) is in \(name).employees")
            }
        }
        for (name, object) in objects where object.entity.name == "Employee" {
            let salary = Int(try object.value(forKey: "salary") as? Int32 ?? -1)
            let department = try object.object(forKey: "department")
            if let department {
                #expect(try department.objects(forKey: "employees").contains(object), "\(name) is listed by its department")
            }
            graph.employees[name] = Graph.Employee(salary: salary, department: try department?.value(forKey: "name") as? String)
        }
        return graph
    }
}
