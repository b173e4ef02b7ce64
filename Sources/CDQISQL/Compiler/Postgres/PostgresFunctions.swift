import CDQIPredicate
import Foundation

/// The SQL functions a PostgreSQL store needs for the SQL compiler's ``SQLDialect/postgres`` dialect:
/// the counterparts of ``SQLiteFunctions``, written in SQL and PL/pgSQL with the semantics of the
/// in-memory evaluator, installed idempotently (`CREATE OR REPLACE`) in the store's schema.
///
/// | function | meaning |
/// | --- | --- |
/// | `cdqi_fold(text, options bigint)` | ``StringFolding``: `[c]` (1), `[d]` (2), `[n]` (4) turns folding off |
/// | `cdqi_beginswith`, `cdqi_endswith`, `cdqi_contains` `(text, text, options bigint)` | the substring operators after folding; an empty needle never matches |
/// | `cdqi_like(text, pattern text, options bigint)` | `LIKE` with `*`, `?` and `\` escapes, as `LikeMatcher` (folded, then NFC) |
/// | `cdqi_matches(text, are text, flags bigint)` | a pattern translated by the compiler; flag 1 ignores case (refusing text with a character of ``asciiCaseRelatives``), flag 2 refuses non-ASCII text |
/// | `cdqi_sum(double precision)`, `cdqi_avg(double precision)` | exactly rounded sum and average (``ExactSum``), NULL over no values |
///
/// The functions never return NULL for a test: a NULL operand is false, as in SQLite. Where PostgreSQL
/// cannot reproduce Foundation exactly they raise an error instead of answering differently:
/// `CQ001` for folding text outside ``PostgresFoldTable/domain``, `CQ002` for a subject a translated
/// pattern cannot match as ICU would (non-ASCII text for `\d \w \s`, a character of
/// ``asciiCaseRelatives`` for case-insensitive matching).
///
/// Known limits, where the two engines are not made to agree value for value: `cdqi_like` brings text to
/// NFC with PostgreSQL's Unicode tables and the evaluator with ICU's, which can differ only for
/// characters assigned in a Unicode version one of them does not know yet; integer arithmetic that
/// overflows 64 bits is an error in PostgreSQL (`22003`), not a result.
public enum PostgresFunctions {
    /// The script for a schema (created in it; the compiler's SQL finds them through `search_path`).
    public static func script(schema: String) -> String {
        let s = SQLDialect.postgres.identifier(schema) + "."
        return """
            CREATE OR REPLACE FUNCTION \(s)cdqi_fold(value text, options bigint) RETURNS text
            LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $cdqi$
            DECLARE
                folding bigint := CASE WHEN options & 4 <> 0 THEN 0 ELSE options & 3 END;
                result text := value;
                outside text;
            BEGIN
                IF folding = 0 THEN RETURN value; END IF;
                IF value !~ E'[^\\\\x01-\\\\x7f]' THEN
                    IF folding & 1 = 0 THEN RETURN value; END IF;
                    RETURN translate(value, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz');
                END IF;
                outside := substring(value from E'\(outsideDomainClass)');
                IF outside IS NOT NULL THEN
                    RAISE EXCEPTION USING ERRCODE = 'CQ001',
                        MESSAGE = format('cdqi_fold: U+%s is outside the characters whose [c]/[d] folding PostgreSQL reproduces exactly', upper(lpad(to_hex(ascii(outside)), 4, '0')));
                END IF;
                IF folding = 1 THEN
            \(body(PostgresFoldTable.caseInsensitive))
                ELSIF folding = 2 THEN
            \(body(PostgresFoldTable.diacriticInsensitive))
                ELSE
            \(body(PostgresFoldTable.both))
                END IF;
                RETURN result;
            END
            $cdqi$;

            \(substringOperator(s, "cdqi_beginswith", operand: "prefix") { "starts_with(\($0), needle)" })

            \(substringOperator(s, "cdqi_endswith", operand: "suffix") { "right(\($0), length(needle)) = needle" })

            \(substringOperator(s, "cdqi_contains", operand: "part") { "strpos(\($0), needle) > 0" })

            -- Core Data's wildcards as SQL LIKE's: * is %, ? is _, \\*, \\? and \\\\ are literal, any other
            -- backslash is itself; % and _ are literal.
            CREATE OR REPLACE FUNCTION \(s)cdqi_like_pattern(pattern text) RETURNS text
            LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $cdqi$
            DECLARE
                result text := '';
                position integer := 1;
                count integer := length(pattern);
                c text;
                next text;
            BEGIN
                WHILE position <= count LOOP
                    c := substr(pattern, position, 1);
                    IF c = '*' THEN
                        result := result || '%';
                    ELSIF c = '?' THEN
                        result := result || '_';
                    ELSIF c = E'\\\\' THEN
                        next := substr(pattern, position + 1, 1);
                        IF next = '*' OR next = '?' THEN
                            result := result || next;
                            position := position + 1;
                        ELSIF next = E'\\\\' THEN
                            result := result || E'\\\\\\\\';
                            position := position + 1;
                        ELSE
                            result := result || E'\\\\\\\\';
                        END IF;
                    ELSIF c = '%' OR c = '_' THEN
                        result := result || E'\\\\' || c;
                    ELSE
                        result := result || c;
                    END IF;
                    position := position + 1;
                END LOOP;
                RETURN result;
            END
            $cdqi$;

            CREATE OR REPLACE FUNCTION \(s)cdqi_like(value text, pattern text, options bigint) RETURNS boolean
            LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $cdqi$
            BEGIN
                IF value IS NULL OR pattern IS NULL THEN RETURN FALSE; END IF;
                RETURN normalize(\(s)cdqi_fold(value, options), NFC) COLLATE "C"
                    LIKE \(s)cdqi_like_pattern(normalize(\(s)cdqi_fold(pattern, options), NFC)) ESCAPE E'\\\\';
            END
            $cdqi$;

            CREATE OR REPLACE FUNCTION \(s)cdqi_matches(value text, pattern text, flags bigint) RETURNS boolean
            LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $cdqi$
            BEGIN
                IF value IS NULL OR pattern IS NULL THEN RETURN FALSE; END IF;
                IF flags & 2 <> 0 AND value ~ E'[^\\\\x01-\\\\x7f]' THEN
                    RAISE EXCEPTION USING ERRCODE = 'CQ002',
                        MESSAGE = 'cdqi_matches: a MATCHES pattern with \\\\d \\\\w or \\\\s runs in PostgreSQL on ASCII text only, and the text is not ASCII';
                END IF;
                IF flags & 1 <> 0 AND value ~ E'\(asciiCaseRelativesClass)' THEN
                    RAISE EXCEPTION USING ERRCODE = 'CQ002',
                        MESSAGE = format('cdqi_matches: U+%s may equal ASCII letters ignoring case in ICU, which PostgreSQL cannot match case-insensitively', upper(lpad(to_hex(ascii(substring(value from E'\(asciiCaseRelativesClass)'))), 4, '0')));
                END IF;
                IF flags & 1 <> 0 THEN RETURN (value COLLATE "C") ~* pattern; END IF;
                RETURN (value COLLATE "C") ~ pattern;
            END
            $cdqi$;

            -- Exactly rounded sums (Shewchuk's partials, as ExactSum and Python's math.fsum). The state is
            -- {count, sum of non-finite values, partials…}.
            CREATE OR REPLACE FUNCTION \(s)cdqi_exact_sum_step(state double precision[], value double precision)
            RETURNS double precision[]
            LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $cdqi$
            DECLARE
                x double precision := value;
                y double precision;
                t double precision;
                hi double precision;
                lo double precision;
                kept double precision[] := '{}';
                i integer;
            BEGIN
                IF value IS NULL THEN RETURN state; END IF;
                IF value = 'Infinity'::double precision OR value = '-Infinity'::double precision OR value = 'NaN'::double precision THEN
                    RETURN ARRAY[state[1] + 1, state[2] + value] || state[3:];
                END IF;
                FOR i IN 3 .. coalesce(array_length(state, 1), 2) LOOP
                    y := state[i];
                    IF abs(x) < abs(y) THEN t := x; x := y; y := t; END IF;
                    hi := x + y;
                    lo := y - (hi - x);
                    IF lo <> 0 THEN kept := kept || lo; END IF;
                    x := hi;
                END LOOP;
                RETURN ARRAY[state[1] + 1, state[2]] || kept || x;
            END
            $cdqi$;

            CREATE OR REPLACE FUNCTION \(s)cdqi_exact_sum_final(state double precision[]) RETURNS double precision
            LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $cdqi$
            DECLARE
                n integer := coalesce(array_length(state, 1), 0);
                hi double precision;
                lo double precision := 0;
                x double precision;
                y double precision;
                yr double precision;
            BEGIN
                IF n < 2 OR state[1] = 0 THEN RETURN NULL; END IF;
                IF state[2] <> 0 THEN RETURN state[2]; END IF;
                IF n = 2 THEN RETURN 0; END IF;
                hi := state[n];
                n := n - 1;
                WHILE n >= 3 LOOP
                    y := state[n];
                    n := n - 1;
                    x := hi;
                    hi := x + y;
                    yr := hi - x;
                    lo := y - yr;
                    IF lo <> 0 THEN EXIT; END IF;
                END LOOP;
                IF n >= 3 AND ((lo < 0 AND state[n] < 0) OR (lo > 0 AND state[n] > 0)) THEN
                    y := lo * 2;
                    x := hi + y;
                    IF y = x - hi THEN hi := x; END IF;
                END IF;
                RETURN hi;
            END
            $cdqi$;

            CREATE OR REPLACE FUNCTION \(s)cdqi_exact_average_final(state double precision[]) RETURNS double precision
            LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $cdqi$
                SELECT \(s)cdqi_exact_sum_final(state) / state[1]
            $cdqi$;

            \(exactAggregate(s, "cdqi_sum", final: "cdqi_exact_sum_final"))

            \(exactAggregate(s, "cdqi_avg", final: "cdqi_exact_average_final"))

            """
    }

    /// A substring operator `name(value text, operand text, options bigint)`: false (never NULL) when a
    /// text is NULL or the folded operand is empty, else `found` of the expression of the folded value.
    private static func substringOperator(_ s: String, _ name: String, operand: String, found: (String) -> String) -> String {
        """
        CREATE OR REPLACE FUNCTION \(s)\(name)(value text, \(operand) text, options bigint) RETURNS boolean
        LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $cdqi$
        DECLARE needle text;
        BEGIN
            IF value IS NULL OR \(operand) IS NULL THEN RETURN FALSE; END IF;
            needle := \(s)cdqi_fold(\(operand), options);
            IF needle = '' THEN RETURN FALSE; END IF;
            RETURN \(found("\(s)cdqi_fold(value, options)"));
        END
        $cdqi$;
        """
    }

    /// An exactly rounded aggregate over `double precision`: ``ExactSum``'s state, then `final`.
    private static func exactAggregate(_ s: String, _ name: String, final: String) -> String {
        """
        CREATE OR REPLACE AGGREGATE \(s)\(name)(double precision) (
            SFUNC = \(s)cdqi_exact_sum_step, STYPE = double precision[], INITCOND = '{0,0}',
            FINALFUNC = \(s)\(final), PARALLEL = SAFE
        );
        """
    }

    /// The non-ASCII characters (of the Basic Multilingual Plane) that case-insensitive ICU matching
    /// could take for ASCII characters: those whose `[c]` folding (full case folding, and width, which
    /// only widens the set) holds an ASCII character, such as `ß` (ss), `ſ` (s), `K` (Kelvin, k), `İ` (i̇),
    /// `ﬀ` (ff). PostgreSQL's case-insensitive matching under `COLLATE "C"` knows ASCII case only, which
    /// agrees with ICU on every other character when the pattern is ASCII.
    package static let asciiCaseRelatives: [ClosedRange<UInt32>] = {
        var ranges: [ClosedRange<UInt32>] = []
        for value in UInt32(0x80)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let folded = StringFolding.fold(String(scalar), options: .caseInsensitive)
            guard folded.unicodeScalars.contains(where: \.isASCII) else { continue }
            if let last = ranges.last, last.upperBound == value - 1 {
                ranges[ranges.count - 1] = last.lowerBound...value
            } else {
                ranges.append(value...value)
            }
        }
        return ranges
    }()

    /// ``asciiCaseRelatives`` as a regular-expression class, as an `E''` literal's text.
    private static var asciiCaseRelativesClass: String {
        var text = "["
        for range in asciiCaseRelatives {
            text += "\\\\u" + hex(range.lowerBound)
            if range.upperBound != range.lowerBound { text += "-\\\\u" + hex(range.upperBound) }
        }
        return text + "]"
    }

    /// The regular-expression class of the characters outside the folding domain, as an `E''` literal's text.
    private static var outsideDomainClass: String {
        var text = "[^"
        for range in PostgresFoldTable.domain {
            text += "\\\\u" + hex(range.lowerBound) + "-\\\\u" + hex(range.upperBound)
        }
        return text + "]"
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The statements of one folding: the replacements, then the translation.
    private static func body(_ table: PostgresFoldTable.Table) -> String {
        var lines: [String] = []
        for (scalar, replacement) in table.replacements {
            lines.append("        result := replace(result, \(literal(String(scalar))), \(literal(replacement)));")
        }
        lines.append("        result := translate(result, \(literal(table.from)), \(literal(table.to)));")
        return lines.joined(separator: "\n")
    }

    /// A standard SQL string literal (quotes doubled; the tables hold no backslash).
    private static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
