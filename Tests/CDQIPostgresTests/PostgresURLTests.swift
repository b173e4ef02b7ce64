import CDQIPostgres
import Testing

@Suite("PostgresURL")
struct PostgresURLTests {
    @Test("every part of a full URL")
    func fullURL() throws {
        let url = try PostgresURL("postgres://alice:s3cret@db.example.com:6543/shop?schema=sales")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6543)
        #expect(url.user == "alice")
        #expect(url.password == "s3cret")
        #expect(url.database == "shop")
        #expect(url.schema == "sales")
        // Not a loopback host: libpq's own default.
        #expect(url.sslMode == "prefer")
        #expect(url.connectTimeout == 10)
    }

    @Test("defaults for what the URL leaves out, TLS off on loopback")
    func defaults() throws {
        let url = try PostgresURL("postgresql://127.0.0.1/cdqi")
        #expect(url.host == "127.0.0.1")
        #expect(url.port == 5432)
        #expect(url.user == nil)
        #expect(url.password == nil)
        #expect(url.database == "cdqi")
        #expect(url.schema == "public")
        #expect(url.sslMode == "disable")

        let bare = try PostgresURL("postgres://")
        #expect(bare.host == "localhost")
        #expect(bare.port == 5432)
        #expect(bare.database == nil)
        #expect(bare.sslMode == "disable")
    }

    @Test("percent-decoding of user, password and database")
    func percentDecoding() throws {
        let url = try PostgresURL("postgres://bob%40corp:p%40ss%2Fw%3Ard@localhost/my%20db")
        #expect(url.user == "bob@corp")
        #expect(url.password == "p@ss/w:rd")
        #expect(url.database == "my db")
        // "é" is C3 A9 in UTF-8.
        #expect(try PostgresURL("postgres://h/caf%C3%A9").database == "café")
    }

    @Test("an IPv6 host in brackets, with a port")
    func ipv6() throws {
        let url = try PostgresURL("postgres://u@[::1]:5433/d")
        #expect(url.host == "::1")
        #expect(url.port == 5433)
        #expect(url.user == "u")
        #expect(url.password == nil)
        #expect(url.sslMode == "disable")
    }

    @Test("the query parameters CDQI knows")
    func parameters() throws {
        let url = try PostgresURL("postgres://h/d?sslmode=require&connect_timeout=3&application_name=shop%20api&schema=s")
        #expect(url.sslMode == "require")
        #expect(url.connectTimeout == 3)
        #expect(url.applicationName == "shop api")
        #expect(url.schema == "s")
    }

    @Test("the description hides the password")
    func description() throws {
        let url = try PostgresURL("postgres://alice:s3cret@db.example.com:6543/shop?schema=sales")
        #expect(url.description == "postgres://alice:***@db.example.com:6543/shop?schema=sales")
        #expect(try PostgresURL("postgres://[::1]/d").description == "postgres://[::1]:5432/d?schema=public")
    }

    @Test(
        "a bad URL names the part at fault",
        arguments: [
            ("mysql://u@h/d", PostgresURLError.Part.scheme),
            ("localhost:5432/d", .scheme),
            ("postgres://h:0/d", .port),
            ("postgres://h:99999/d", .port),
            ("postgres://h:abc/d", .port),
            ("postgres://h:/d", .port),
            ("postgres://u%zz@h/d", .user),
            ("postgres://u:p%4@h/d", .password),
            ("postgres://h/a/b", .database),
            ("postgres://h/d%00", .database),
            ("postgres://h/%FF", .database),
            ("postgres://[::1/d", .host),
            ("postgres://[::1]x/d", .host),
            ("postgres://h/d?sslmode=maybe", .parameter("sslmode")),
            ("postgres://h/d?schemas=x", .parameter("schemas")),
            ("postgres://h/d?schema=", .parameter("schema")),
            ("postgres://h/d?schema=a&schema=b", .parameter("schema")),
            ("postgres://h/d?connect_timeout=0", .parameter("connect_timeout")),
        ])
    func badURL(_ text: String, part: PostgresURLError.Part) {
        #expect {
            _ = try PostgresURL(text)
        } throws: { error in
            (error as? PostgresURLError)?.part == part
        }
    }

    @Test("an error in the password does not show the password")
    func passwordNotInError() {
        do {
            _ = try PostgresURL("postgres://u:topsecret%G1@h/d")
            Issue.record("the URL parsed")
        } catch {
            #expect(error.part == .password)
            #expect(!error.description.contains("topsecret"))
            #expect(error.description.hasPrefix("invalid PostgreSQL URL: the password:"))
        }
    }
}
