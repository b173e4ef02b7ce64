import CDQIInterchange
import CDQIModel
import CDQITestSupport
import Foundation
import Testing

/// Generated data sets of a few hundred objects go into a store through import, come out through
/// export with the values the generator chose, and survive export → import into a fresh store → export
/// unchanged.
@Suite struct RoundTripTests {
    // MARK: Company: to-one / to-many, every attribute type

    struct Employee {
        var first: String
        var last: String
        var nick: String?
        var salary: Int32
        /// ISO 8601 text as written in the document, and as export must write it back.
        var hireDate: (written: String, exported: String)?
        var department: Int?
    }

    static let hostile = [
        "O'Neil", "Robert'); DROP TABLE ZEMPLOYEE;--", "\"quoted\"", "back\\slash", "line\nbreak", "tab\there",
        "émile 😀", "%@ %K $var", "' OR '1'='1", "x\" OR 1=1 --",
    ]

    static func employees(count: Int, departments: Int, rng: inout SeededGenerator) -> [Employee] {
        (0..<count).map { index in
            var date: (String, String)?
            if rng.below(5) != 0 {
                let year = 1990 + rng.below(35)
                let month = 1 + rng.below(12)
                let day = 1 + rng.below(28)
                let hour = rng.below(24), minute = rng.below(60), second = rng.below(60)
                let millis = rng.below(3) == 0 ? 0 : rng.below(1000)
                let base = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
                // Export trims trailing zeros of the fraction and drops a zero fraction.
                var fraction = String(format: "%03d", millis)
                while fraction.hasSuffix("0") { fraction.removeLast() }
                date = (base + String(format: ".%03dZ", millis), base + (fraction.isEmpty ? "" : "." + fraction) + "Z")
            }
            let last = rng.below(4) == 0 ? hostile[rng.below(hostile.count)] : "Last\(index)"
            return Employee(
                first: "First\(index % 37)", last: last, nick: rng.below(3) == 0 ? nil : "Nick \(index)",
                salary: Int32(30_000 + rng.below(120_000)), hireDate: date,
                department: rng.below(10) == 0 ? nil : rng.below(departments))
        }
    }

    @Test func companyDataSetRoundTrips() throws {
        let model = try InterchangeTestSupport.model("Company")
        var rng = SeededGenerator(seed: 0xC0FFEE)
        let departmentCount = 12
        let budgets: [String?] = (0..<departmentCount).map { $0 % 4 == 3 ? nil : "\($0 * 1000 + 250).\($0 % 10)5" }
        let staff = Self.employees(count: 300, departments: departmentCount, rng: &rng)

        // The document, written by hand (not by the exporter).
        var departments: [String] = []
        for index in 0..<departmentCount {
            let budget = budgets[index].map { "\"\($0)\"" } ?? "null"
            departments.append("{\"_id\": \"d\(index)\", \"name\": \"Department \(index)\", \"budget\": \(budget)}")
        }
        var employees: [String] = []
        for (index, employee) in staff.enumerated() {
            var members = [
                "\"_id\": \"e\(index)\"", "\"firstName\": \(JSONWriter.quoted(employee.first))",
                "\"lastName\": \(JSONWriter.quoted(employee.last))", "\"salary\": \(employee.salary)",
            ]
            if let nick = employee.nick { members.append("\"nickName\": \(JSONWriter.quoted(nick))") }
            if let date = employee.hireDate { members.append("\"hireDate\": \"\(date.written)\"") }
            if let department = employee.department { members.append("\"department\": \"d\(department)\"") }
            employees.append("{" + members.joined(separator: ", ") + "}")
        }
        let document = "{\"Department\": [\(departments.joined(separator: ",\n"))],\n\"Employee\": [\(employees.joined(separator: ",\n"))]}"

        let folder = try InterchangeTestSupport.Folder()
        let summary = try InterchangeTestSupport.importJSON(document, model: model, into: folder.file("a.sqlite"))
        #expect(summary.description == "imported 312 objects: 12 Department, 300 Employee")

        let exported = try InterchangeTestSupport.export(model: model, from: folder.file("a.sqlite"))
        let objects = try InterchangeTestSupport.objects(in: exported)
        // Objects are inserted in document order, so d<i> is Department/<i+1> and e<i> Employee/<i+1>.
        #expect(objects["Department"]?.count == departmentCount)
        #expect(objects["Employee"]?.count == staff.count)
        #expect(objects["TestEntity"]?.isEmpty == true)
        for index in 0..<departmentCount {
            let department = try #require(objects["Department"]?["Department/\(index + 1)"])
            #expect(department["name"] == .string("Department \(index)"))
            #expect(department["budget"] == (budgets[index].map(JSONValue.string) ?? .null))
            let members = staff.indices.filter { staff[$0].department == index }.map { JSONValue.string("Employee/\($0 + 1)") }
            #expect(department["employees"] == .array(members))
        }
        for (index, employee) in staff.enumerated() {
            let object = try #require(objects["Employee"]?["Employee/\(index + 1)"])
            #expect(object["firstName"] == .string(employee.first))
            #expect(object["lastName"] == .string(employee.last))
            #expect(object["nickName"] == (employee.nick.map(JSONValue.string) ?? .null))
            #expect(object["salary"] == .number(String(employee.salary)))
            #expect(object["hireDate"] == (employee.hireDate.map { JSONValue.string($0.exported) } ?? .null))
            #expect(object["department"] == (employee.department.map { JSONValue.string("Department/\($0 + 1)") } ?? .null))
        }

        try InterchangeTestSupport.importJSON(exported, model: model, into: folder.file("b.sqlite"))
        #expect(try InterchangeTestSupport.export(model: model, from: folder.file("b.sqlite")) == exported)
    }

    @Test func everyAttributeTypeRoundTripsExactly() throws {
        let model = try InterchangeTestSupport.model("Company")
        var rng = SeededGenerator(seed: 7)
        var documents: [String] = []
        var expected: [(double: Double, float: Float, i16: Int16, i32: Int32, i64: Int64, data: Data, uuid: UUID, decimal: String)] = []
        for index in 0..<60 {
            let double = Double(Int64(rng.below(2_000_000)) - 1_000_000) / Double(1 + rng.below(997))
            let float = Float(rng.below(100_000)) / 7
            let i16: Int16 = [Int16.min, Int16.max, 0, -1][index % 4]
            let i32: Int32 = [Int32.min, Int32.max, 7, -7][index % 4]
            let i64: Int64 = [Int64.min, Int64.max, 1 << 53 + 1, -(1 << 60)][index % 4]
            let data = Data((0..<rng.below(40)).map { _ in UInt8(rng.below(256)) })
            let uuid = UUID()
            let decimal = ["0.1", "12345.67", "-0.07", "99999999.125"][index % 4]
            expected.append((double, float, i16, i32, i64, data, uuid, decimal))
            documents.append(
                """
                {"_id": "t\(index)", "binary": "\(data.base64EncodedString())", "boolean": \(index % 2 == 0), \
                "date": "2001-01-01T00:00:0\(index % 10)Z", "decimal": "\(decimal)", "double": \(double), \
                "float": \(float), "integer16": \(i16), "integer32": \(i32), "integer64": \(i64), \
                "string": "s\(index)", "transformable": "\(data.base64EncodedString())", \
                "uri": "https://example.com/\(index)?q=a%20b", "uuid": "\(uuid.uuidString)"}
                """)
        }
        let folder = try InterchangeTestSupport.Folder()
        try InterchangeTestSupport.importJSON(
            "{\"TestEntity\": [\(documents.joined(separator: ",\n"))]}", model: model, into: folder.file("a.sqlite"))
        let exported = try InterchangeTestSupport.export(model: model, from: folder.file("a.sqlite"))
        let objects = try #require(try InterchangeTestSupport.objects(in: exported)["TestEntity"])
        #expect(objects.count == 60)
        for (index, value) in expected.enumerated() {
            let object = try #require(objects["TestEntity/\(index + 1)"])
            guard case .number(let double)? = object["double"], case .number(let float)? = object["float"] else {
                Issue.record("TestEntity/\(index + 1) has no numbers: \(object)")
                continue
            }
            #expect(Double(double) == value.double)
            #expect(Double(float) == Double(value.float))
            #expect(object["integer16"] == .number(String(value.i16)))
            #expect(object["integer32"] == .number(String(value.i32)))
            #expect(object["integer64"] == .number(String(value.i64)))
            #expect(object["binary"] == .string(value.data.base64EncodedString()))
            #expect(object["transformable"] == .string(value.data.base64EncodedString()))
            #expect(object["uuid"] == .string(value.uuid.uuidString))
            #expect(object["decimal"] == .string(value.decimal))
            #expect(object["boolean"] == .bool(index % 2 == 0))
            #expect(object["date"] == .string("2001-01-01T00:00:0\(index % 10)Z"))
            #expect(object["uri"] == .string("https://example.com/\(index)?q=a%20b"))
            #expect(object["string"] == .string("s\(index)"))
            #expect(object["scratch"] == nil)  // transient: never exported
        }
        try InterchangeTestSupport.importJSON(exported, model: model, into: folder.file("b.sqlite"))
        #expect(try InterchangeTestSupport.export(model: model, from: folder.file("b.sqlite")) == exported)
    }

    // MARK: Developers: many-to-many both ways, a to-one with a to-many inverse

    @Test func developersDataSetRoundTripsWithManyToMany() throws {
        let model = try InterchangeTestSupport.model("Developers")
        var rng = SeededGenerator(seed: 42)
        let languageCount = 10, developerCount = 120, projectCount = 40
        let speaks: [Set<Int>] = (0..<developerCount).map { _ in Set((0..<rng.below(4)).map { _ in rng.below(languageCount) }) }
        let lead: [Int?] = (0..<projectCount).map { _ in rng.below(5) == 0 ? nil : rng.below(developerCount) }
        let members: [Set<Int>] = (0..<projectCount).map { _ in Set((0..<rng.below(8)).map { _ in rng.below(developerCount) }) }

        func ids(_ prefix: String, _ set: Set<Int>) -> String {
            "[" + set.sorted().map { "\"\(prefix)\($0)\"" }.joined(separator: ", ") + "]"
        }
        // Languages are given from the developers' side, members from the projects' side; the store fills
        // in the inverses.
        let languages = (0..<languageCount).map { "{\"_id\": \"l\($0)\", \"name\": \"Language \($0)\"}" }
        let developers = (0..<developerCount).map {
            "{\"_id\": \"v\($0)\", \"firstName\": \"Dev\", \"lastName\": \"Number \($0)\", \"languages\": \(ids("l", speaks[$0]))}"
        }
        let projects = (0..<projectCount).map { index in
            "{\"_id\": \"p\(index)\", \"name\": \"Project \(index)\", \"lead\": \(lead[index].map { "\"v\($0)\"" } ?? "null"), "
                + "\"members\": \(ids("v", members[index]))}"
        }
        let document =
            "{\"Language\": [\(languages.joined(separator: ","))], \"Developer\": [\(developers.joined(separator: ","))], "
            + "\"Project\": [\(projects.joined(separator: ","))]}"

        let folder = try InterchangeTestSupport.Folder()
        try InterchangeTestSupport.importJSON(document, model: model, into: folder.file("a.sqlite"))
        let exported = try InterchangeTestSupport.export(model: model, from: folder.file("a.sqlite"))
        let objects = try InterchangeTestSupport.objects(in: exported)

        func list(_ entity: String, _ numbers: [Int]) -> JSONValue {
            .array(numbers.sorted().map { .string("\(entity)/\($0 + 1)") })
        }
        for developer in 0..<developerCount {
            let object = try #require(objects["Developer"]?["Developer/\(developer + 1)"])
            #expect(object["lastName"] == .string("Number \(developer)"))
            #expect(object["languages"] == list("Language", Array(speaks[developer])))
            // Inverses worked out from the generated sets.
            #expect(object["projects"] == list("Project", (0..<projectCount).filter { members[$0].contains(developer) }))
            #expect(object["ledProjects"] == list("Project", (0..<projectCount).filter { lead[$0] == developer }))
        }
        for language in 0..<languageCount {
            let object = try #require(objects["Language"]?["Language/\(language + 1)"])
            #expect(object["developers"] == list("Developer", (0..<developerCount).filter { speaks[$0].contains(language) }))
        }
        for project in 0..<projectCount {
            let object = try #require(objects["Project"]?["Project/\(project + 1)"])
            #expect(object["members"] == list("Developer", Array(members[project])))
            #expect(object["lead"] == (lead[project].map { JSONValue.string("Developer/\($0 + 1)") } ?? .null))
            #expect(object["deadline"] == .null)
        }

        // The export gives both sides of each pair; importing it checks they agree and rebuilds the same store.
        try InterchangeTestSupport.importJSON(exported, model: model, into: folder.file("b.sqlite"))
        #expect(try InterchangeTestSupport.export(model: model, from: folder.file("b.sqlite")) == exported)
    }

    @Test func exportOfOneEntityLeavesOutRelationshipsToOthersAndStaysImportable() throws {
        let model = try InterchangeTestSupport.model("Company")
        let folder = try InterchangeTestSupport.Folder()
        try InterchangeTestSupport.importJSON(
            """
            {"Department": [{"_id": "d", "name": "Sales"}], "Employee": [{"_id": "e", "firstName": "Jane", "lastName": "Doe", "department": "d"}]}
            """, model: model, into: folder.file("a.sqlite"))
        let text = try InterchangeTestSupport.export(model: model, from: folder.file("a.sqlite"), entity: "Employee")
        #expect(
            text == """
                {
                  "Employee": [
                    {"_id": "Employee/1", "firstName": "Jane", "hireDate": null, "lastName": "Doe", "nickName": null, "salary": 0}
                  ]
                }

                """)
        try InterchangeTestSupport.importJSON(text, model: model, into: folder.file("b.sqlite"))
        #expect(throws: InterchangeError.self) {
            try InterchangeTestSupport.export(model: model, from: folder.file("a.sqlite"), entity: "Nobody")
        }
    }
}
