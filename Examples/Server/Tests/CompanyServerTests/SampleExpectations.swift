import CompanyAPI

/// The sample data's answers, worked out by hand from the table in `SampleData` (and the README's tour):
/// each department's employees by last then first name, and its salary figures.
enum SampleExpectations {
    private static func sample(_ first: String, _ last: String, _ nick: String?, _ salary: Int32, _ department: String?) -> ExpectedEmployee {
        ExpectedEmployee(label: "sample", firstName: first, lastName: last, nickName: nick, salary: salary, department: department)
    }

    static let employees: [String: [ExpectedEmployee]] = [
        "Engineering": [
            sample("Grace", "Hopper", "Amazing Grace", 150_000, "Engineering"),
            sample("Ann", "Lee", "Annie", 120_000, "Engineering"),
            sample("Chloé", "Martin", "Clo", 105_000, "Engineering"),
            sample("Bob", "Smith", nil, 95_000, "Engineering"),
        ],
        "Sales": [
            sample("Emma", "Jones", nil, 82_000, "Sales"),
            sample("Frank", "Müller", "Frankie", 64_000, "Sales"),
            sample("David", "Smith", "Dave", 70_000, "Sales"),
        ],
        "Marketing": [
            sample("Hugo", "Renard", nil, 58_000, "Marketing"),
            sample("Iris", "Smithson", "Irie", 61_000, "Marketing"),
        ],
        "Support": [
            sample("Karen", "Lee", "Kay", 47_000, "Support"),
            sample("Jack", "O'Neil", nil, 45_000, "Support"),
        ],
        "Legal": [],
    ]

    /// `GET /stats` of the sample data alone: Liam (no department) first, then by name; Legal has nobody.
    static let stats: [SalaryStats] = [
        SalaryStats(department: nil, employees: 1, totalSalary: 52_000, minSalary: 52_000, maxSalary: 52_000),
        SalaryStats(department: "Engineering", employees: 4, totalSalary: 470_000, minSalary: 95_000, maxSalary: 150_000),
        SalaryStats(department: "Marketing", employees: 2, totalSalary: 119_000, minSalary: 58_000, maxSalary: 61_000),
        SalaryStats(department: "Sales", employees: 3, totalSalary: 216_000, minSalary: 64_000, maxSalary: 82_000),
        SalaryStats(department: "Support", employees: 2, totalSalary: 92_000, minSalary: 45_000, maxSalary: 47_000),
    ]

    static let departments = ["Engineering", "Legal", "Marketing", "Sales", "Support"]
}
