import CDQIModel
import CDQIPostgres
import CDQIPredicate
import Foundation
import Testing

@testable import CDQIObjects
@testable import CDQISQLite
@testable import CDQIStore

/// What a save on PostgreSQL gives when the server refuses its writes (issue 22 item 3): a unique
/// violation from a race with another process is the validation error a SQLite save gives; a
/// serialization failure or a deadlock is run again, never reported as the server's error.
@Suite(
    "Save errors on a PostgreSQL store",
    .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["CDQI_POSTGRES_URL"] != nil, "CDQI_POSTGRES_URL is not set"))
struct PostgresSaveErrorTests {
    /// What the other connection's thread saw, handed back to the test.
    final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var values: (key: Int64?, sawWaiter: Bool, error: String?) = (nil, false, nil)
        var key: Int64? { lock.withLock { values.key } }
        var sawWaiter: Bool { lock.withLock { values.sawWaiter } }
        var error: String? { lock.withLock { values.error } }
        func set(key: Int64? = nil, sawWaiter: Bool? = nil, error: String? = nil) {
            lock.withLock {
                if let key { values.key = key }
                if let sawWaiter { values.sawWaiter = sawWaiter }
                if let error { values.error = error }
            }
        }
    }

    @Test("a uniqueness race between two processes is the save's validation error (notUnique), not the server's 23505")
    func uniqueRace() throws {
        let model = try StoreTestSupport.fixtureModel("Developers")
        try PostgresContextTests.withSchema { url, connection in
            let context = ManagedObjectContext(coordinator: try PostgresContextTests.coordinator(model, url))
            let mine = try ContextTestSupport.insert(context, "Language", ["name": "Swift"])
            let uuid = try #require(try PostgresContextTests.rows(connection, "SELECT \"Z_UUID\" FROM \"Z_METADATA\"").first?.first)

            // The other process takes Language's key row first (as its save does), so that this save
            // passes its uniqueness check (no Swift yet) and then waits for that row; once it waits, the
            // other process inserts its Swift and commits. This save's INSERT then meets the unique index.
            let locked = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            let outcome = Outcome()
            let other = Thread {
                defer { finished.signal() }
                do {
                    let connection = try PostgresConnection(url: url)
                    try connection.execute("BEGIN")
                    let row = try connection.query(
                        "SELECT \"Z_ENT\", \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_NAME\" = 'Language' FOR UPDATE")
                    let entity = try row.int64(row: 0, column: 0) ?? 0
                    let key = (try row.int64(row: 0, column: 1) ?? 0) + 1
                    locked.signal()
                    let deadline = Date().addingTimeInterval(60)
                    while Date() < deadline {
                        let waiting = try connection.query(
                            "SELECT count(*) FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))")
                        if try waiting.int64(row: 0, column: 0) ?? 0 > 0 {
                            outcome.set(sawWaiter: true)
                            break
                        }
                        Thread.sleep(forTimeInterval: 0.01)
                    }
                    try connection.query(
                        "INSERT INTO \"ZLANGUAGE\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZNAME\") VALUES ($1, $2, 1, 'Swift')",
                        [.integer(key), .integer(entity)])
                    try connection.query("UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = $1 WHERE \"Z_ENT\" = $2", [.integer(key), .integer(entity)])
                    try connection.execute("COMMIT")
                    outcome.set(key: key)
                } catch {
                    outcome.set(error: "\(error)")
                    locked.signal()
                }
            }
            other.start()
            locked.wait()
            var refusal: (any Error)?
            do {
                try context.save()
            } catch {
                refusal = error
            }
            finished.wait()
            #expect(outcome.error == nil)
            // The save really waited behind the other process, after its check.
            #expect(outcome.sawWaiter)
            let key = try #require(outcome.key)
            let expected = ValidationFailure(
                entityName: "Language", objectID: mine.objectID.uriString, key: "name",
                problem: .notUnique(properties: ["name"], otherObject: "x-coredata://\(uuid)/Language/p\(key)"))
            guard case ContextError.validation(let failures)? = refusal else {
                Issue.record("expected the validation error, got \(String(describing: refusal))")
                return
            }
            #expect(failures == [expected])
            // Nothing of this save was written; the other process's row is the only one.
            #expect(try PostgresContextTests.rows(connection, "SELECT \"Z_PK\", \"ZNAME\" FROM \"ZLANGUAGE\"") == [[String(key), "Swift"]])
            #expect(mine.objectID.primaryKey == nil)
            #expect(context.hasChanges)
        }
    }

    @Test("a rename racing another process's insert of the same unique name is the validation error too")
    func uniqueRaceOnUpdate() throws {
        let model = try StoreTestSupport.fixtureModel("Developers")
        try PostgresContextTests.withSchema { url, connection in
            let context = ManagedObjectContext(coordinator: try PostgresContextTests.coordinator(model, url))
            let mine = try ContextTestSupport.insert(context, "Language", ["name": "Go"])
            try context.save()
            let uuid = try #require(try PostgresContextTests.rows(connection, "SELECT \"Z_UUID\" FROM \"Z_METADATA\"").first?.first)
            // The save's first UPDATE of ZLANGUAGE pauses 1 s before it writes (a statement trigger),
            // after the save checked the new name; meanwhile the other process inserts Swift and commits.
            try connection.execute(
                """
                CREATE SEQUENCE "cdqi_updates";
                CREATE FUNCTION "cdqi_pause_first_update"() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF nextval('cdqi_updates') = 1 THEN PERFORM pg_sleep(1); END IF;
                    RETURN NULL;
                END $$;
                CREATE TRIGGER "cdqi_pause" BEFORE UPDATE ON "ZLANGUAGE" FOR EACH STATEMENT EXECUTE FUNCTION "cdqi_pause_first_update"();
                """)
            let finished = DispatchSemaphore(value: 0)
            let outcome = Outcome()
            let other = Thread {
                defer { finished.signal() }
                do {
                    let connection = try PostgresConnection(url: url)
                    let deadline = Date().addingTimeInterval(60)
                    let sleeping = "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'"
                    while Date() < deadline, try connection.query(sleeping).int64(row: 0, column: 0) ?? 0 == 0 {
                        Thread.sleep(forTimeInterval: 0.005)
                    }
                    outcome.set(sawWaiter: try connection.query(sleeping).int64(row: 0, column: 0) ?? 0 > 0)
                    let key = try connection.query(
                        "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = \"Z_MAX\" + 1 WHERE \"Z_NAME\" = 'Language' RETURNING \"Z_MAX\", \"Z_ENT\"")
                    let (value, entity) = (try key.int64(row: 0, column: 0) ?? 0, try key.int64(row: 0, column: 1) ?? 0)
                    try connection.query(
                        "INSERT INTO \"ZLANGUAGE\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \"ZNAME\") VALUES ($1, $2, 1, 'Swift')",
                        [.integer(value), .integer(entity)])
                    outcome.set(key: value)
                } catch {
                    outcome.set(error: "\(error)")
                }
            }
            other.start()
            try mine.setValue("Swift", forKey: "name")
            var refusal: (any Error)?
            do {
                try context.save()
            } catch {
                refusal = error
            }
            finished.wait()
            #expect(outcome.error == nil)
            #expect(outcome.sawWaiter, "the save did not pause")
            let key = try #require(outcome.key)
            let expected = ValidationFailure(
                entityName: "Language", objectID: mine.objectID.uriString, key: "name",
                problem: .notUnique(properties: ["name"], otherObject: "x-coredata://\(uuid)/Language/p\(key)"))
            guard case ContextError.validation(let failures)? = refusal else {
                Issue.record("expected the validation error, got \(String(describing: refusal))")
                return
            }
            #expect(failures == [expected])
            // The rename was not written: Go (key 1, version 1) and the other process's Swift.
            #expect(
                try PostgresContextTests.rows(connection, "SELECT \"Z_PK\", \"Z_OPT\", \"ZNAME\" FROM \"ZLANGUAGE\" ORDER BY \"Z_PK\"")
                    == [["1", "1", "Go"], [String(key), "1", "Swift"]])
        }
    }

    @Test("a save meeting a serialization failure, then a deadlock, is run again and commits once")
    func retriedOnSerializationFailure() throws {
        let model = try StoreTestSupport.fixtureModel("Developers")
        try PostgresContextTests.withSchema { url, connection in
            let context = ManagedObjectContext(coordinator: try PostgresContextTests.coordinator(model, url))
            // The first insert into ZLANGUAGE fails with 40001, the second with 40P01, the third passes.
            try connection.execute(
                """
                CREATE SEQUENCE "cdqi_attempts";
                CREATE FUNCTION "cdqi_fail_twice"() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE attempt bigint := nextval('cdqi_attempts');
                BEGIN
                    IF attempt = 1 THEN RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = '40001'; END IF;
                    IF attempt = 2 THEN RAISE EXCEPTION 'injected deadlock' USING ERRCODE = '40P01'; END IF;
                    RETURN NEW;
                END $$;
                CREATE TRIGGER "cdqi_fail_twice" BEFORE INSERT ON "ZLANGUAGE" FOR EACH ROW EXECUTE FUNCTION "cdqi_fail_twice"();
                """)
            _ = try ContextTestSupport.insert(context, "Language", ["name": "Swift"])
            _ = try ContextTestSupport.insert(context, "Developer", ["firstName": "Ann", "lastName": "Lee"])
            try context.save()
            // Three runs of the save; the first two rolled back entirely (their keys too): one row each, keys 1.
            #expect(try PostgresContextTests.rows(connection, "SELECT last_value FROM \"cdqi_attempts\"") == [["3"]])
            #expect(try PostgresContextTests.rows(connection, "SELECT \"Z_PK\", \"ZNAME\" FROM \"ZLANGUAGE\"") == [["1", "Swift"]])
            #expect(try PostgresContextTests.rows(connection, "SELECT \"Z_PK\", \"ZFIRSTNAME\" FROM \"ZDEVELOPER\"") == [["1", "Ann"]])
            #expect(
                try PostgresContextTests.rows(connection, "SELECT \"Z_NAME\", \"Z_MAX\" FROM \"Z_PRIMARYKEY\" ORDER BY \"Z_NAME\"") == [
                    ["Developer", "1"], ["Language", "1"], ["Project", "0"],
                ])
            #expect(!context.hasChanges)
        }
    }
    @Test("a save meeting serialization failures every time is run 5 times, then refused as a store error naming 40001, writing nothing")
    func serializationFailuresExhausted() throws {
        let model = try StoreTestSupport.fixtureModel("Developers")
        try PostgresContextTests.withSchema { url, connection in
            let context = ManagedObjectContext(coordinator: try PostgresContextTests.coordinator(model, url))
            try connection.execute(
                """
                CREATE SEQUENCE "cdqi_attempts";
                CREATE FUNCTION "cdqi_fail_always"() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM nextval('cdqi_attempts');
                    RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = '40001';
                END $$;
                CREATE TRIGGER "cdqi_fail_always" BEFORE INSERT ON "ZLANGUAGE" FOR EACH ROW EXECUTE FUNCTION "cdqi_fail_always"();
                """)
            _ = try ContextTestSupport.insert(context, "Language", ["name": "Swift"])
            #expect {
                try context.save()
            } throws: { error in
                guard case ContextError.store(.server(_, let message)) = error else { return false }
                return message.contains("40001") && message.contains("injected serialization failure")
            }
            #expect(try PostgresContextTests.rows(connection, "SELECT last_value FROM \"cdqi_attempts\"") == [["5"]])
            #expect(try PostgresContextTests.rows(connection, "SELECT count(*) FROM \"ZLANGUAGE\"") == [["0"]])
            #expect(try PostgresContextTests.rows(connection, "SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_NAME\" = 'Language'") == [["0"]])
            #expect(context.hasChanges)
        }
    }
}
