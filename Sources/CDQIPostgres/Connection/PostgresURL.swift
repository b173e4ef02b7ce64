/// Where a PostgreSQL store lives: a server, a database and a schema, parsed from a connection URL
/// `postgres://user:password@host:port/database?schema=name` (`postgresql://` too).
///
/// User, password and database are percent-decoded (`%40` for `@`, `%2F` for `/`). What the URL
/// leaves out takes a default: host `localhost`, port 5432, schema `public`, a 10-second connect
/// timeout, and TLS off (`sslmode=disable`) on a loopback host, libpq's `prefer` elsewhere. A missing
/// user or database is left to libpq (the operating-system user, a database named like the user).
///
/// Query parameters: `schema`, `sslmode` (`disable`, `allow`, `prefer`, `require`, `verify-ca`,
/// `verify-full`), `connect_timeout` (seconds) and `application_name`; any other is refused, so that a
/// misspelt one is not silently ignored. The ``description`` never shows the password.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// The server's host name or address (an IPv6 address without its brackets).
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// The role to connect as, or `nil` for libpq's default (the operating-system user).
    public var user: String?
    /// The role's password, or `nil` for none.
    public var password: String?
    /// The database, or `nil` for libpq's default (named like the user).
    public var database: String?
    /// The schema the store's tables live in.
    public var schema: String
    /// libpq's `sslmode`.
    public var sslMode: String
    /// Seconds to wait for the connection before giving up.
    public var connectTimeout: Int
    /// The name the server shows for the connection (`pg_stat_activity.application_name`).
    public var applicationName: String

    /// The `sslmode` values libpq accepts.
    public static let sslModes: Set<String> = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    /// A URL from its parts; the defaults are those of a URL that leaves the part out.
    public init(
        host: String = "localhost", port: Int = 5432, user: String? = nil, password: String? = nil,
        database: String? = nil, schema: String = "public", sslMode: String? = nil, connectTimeout: Int = 10,
        applicationName: String = "cdqi"
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.schema = schema
        self.sslMode = sslMode ?? (Self.isLoopback(host) ? "disable" : "prefer")
        self.connectTimeout = connectTimeout
        self.applicationName = applicationName
    }

    /// Parses a `postgres://` or `postgresql://` URL.
    public init(_ string: String) throws(PostgresURLError) {
        var rest = Substring(string)
        guard let schemeEnd = rest.range(of: "://") else {
            throw PostgresURLError(part: .scheme, reason: "it does not start with postgres:// or postgresql://")
        }
        let scheme = rest[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresURLError(part: .scheme, reason: "the scheme '\(scheme)' is not postgres or postgresql")
        }
        rest = rest[schemeEnd.upperBound...]

        // The query, then the path, then the authority.
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring?
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var authority = rest
        var user: String?
        var password: String?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], part: .user)
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], part: .password)
            } else {
                user = try Self.decode(userInfo, part: .user)
            }
            if user?.isEmpty == true { user = nil }
        }

        var host = "localhost"
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw PostgresURLError(part: .host, reason: "the IPv6 address has no closing ']'")
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw PostgresURLError(part: .host, reason: "'\(after)' follows the IPv6 address")
            }
            guard !host.isEmpty else { throw PostgresURLError(part: .host, reason: "the IPv6 address is empty") }
        } else {
            var hostText = authority
            if let colon = authority.firstIndex(of: ":") {
                hostText = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            }
            if !hostText.isEmpty { host = try Self.decode(hostText, part: .host) }
        }
        var port = 5432
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value), portText.allSatisfy(\.isASCII) else {
                throw PostgresURLError(part: .port, reason: "'\(portText)' is not a port number from 1 to 65535")
            }
            port = value
        }

        var database: String?
        if let path, !path.isEmpty {
            guard !path.contains("/") else {
                throw PostgresURLError(part: .database, reason: "the path '\(path)' has more than one segment")
            }
            database = try Self.decode(path, part: .database)
        }

        self.init(host: host, port: port, user: user, password: password, database: database)
        var seen: Set<String> = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let name: String
            let value: String
            if let equals = pair.firstIndex(of: "=") {
                name = try Self.decode(pair[..<equals], part: .parameter(String(pair[..<equals])))
                value = try Self.decode(pair[pair.index(after: equals)...], part: .parameter(name))
            } else {
                name = try Self.decode(pair, part: .parameter(String(pair)))
                value = ""
            }
            guard seen.insert(name).inserted else {
                throw PostgresURLError(part: .parameter(name), reason: "it is given twice")
            }
            try apply(name: name, value: value)
        }
    }

    private mutating func apply(name: String, value: String) throws(PostgresURLError) {
        switch name {
        case "schema":
            guard !value.isEmpty else { throw PostgresURLError(part: .parameter(name), reason: "the schema name is empty") }
            guard value.utf8.count <= 63 else {
                throw PostgresURLError(part: .parameter(name), reason: "'\(value)' is longer than PostgreSQL's 63-byte names")
            }
            schema = value
        case "sslmode":
            guard Self.sslModes.contains(value) else {
                throw PostgresURLError(
                    part: .parameter(name),
                    reason: "'\(value)' is not one of " + Self.sslModes.sorted().joined(separator: ", "))
            }
            sslMode = value
        case "connect_timeout":
            guard let seconds = Int(value), seconds >= 1, seconds <= 3_600 else {
                throw PostgresURLError(part: .parameter(name), reason: "'\(value)' is not a number of seconds from 1 to 3600")
            }
            connectTimeout = seconds
        case "application_name":
            applicationName = value
        default:
            throw PostgresURLError(
                part: .parameter(name),
                reason: "it is not one CDQI knows (schema, sslmode, connect_timeout, application_name)")
        }
    }

    /// The URL, with the password replaced by `***`.
    public var description: String {
        var text = "postgres://"
        if let user {
            text += Self.encode(user)
            if password != nil { text += ":***" }
            text += "@"
        }
        text += host.contains(":") ? "[\(host)]" : Self.encode(host)
        text += ":\(port)"
        if let database { text += "/" + Self.encode(database) }
        text += "?schema=" + Self.encode(schema)
        return text
    }

    /// Whether a host is this machine's loopback interface.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Percent-decodes one part: `%XX` pairs become bytes, which must be UTF-8 with no NUL.
    static func decode(_ text: Substring, part: PostgresURLError.Part) throws(PostgresURLError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw PostgresURLError(part: part, reason: "a '%' is not followed by two hexadecimal digits")
            }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0) else { throw PostgresURLError(part: part, reason: "it contains a NUL character") }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw PostgresURLError(part: part, reason: "its percent-encoded bytes are not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Percent-encodes everything but unreserved characters.
    static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.properties.isASCIIHexDigit || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "-._~".unicodeScalars.contains(scalar)
            {
                encoded.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}

/// Why a PostgreSQL URL could not be parsed: the part at fault and what is wrong with it. The message
/// never shows the password.
public struct PostgresURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A part of a connection URL.
    public enum Part: Sendable, Hashable, CustomStringConvertible {
        case scheme, user, password, host, port, database
        /// A query parameter, by name.
        case parameter(String)

        /// The part's name, as the message says it.
        public var description: String {
            switch self {
            case .scheme: "scheme"
            case .user: "user"
            case .password: "password"
            case .host: "host"
            case .port: "port"
            case .database: "database"
            case .parameter(let name): "parameter '\(name)'"
            }
        }
    }

    /// The part at fault.
    public var part: Part
    /// What is wrong with it.
    public var reason: String

    /// A sentence naming the part and the problem.
    public var description: String {
        "invalid PostgreSQL URL: the \(part): \(reason)"
    }
}
