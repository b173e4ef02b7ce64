import CDQIPredicate
import Testing

@Suite("String folding, LIKE and MATCHES (§3.3, §3.4)")
struct StringOperatorTests {
    @Test func folding() {
        #expect(StringFolding.fold("Café", options: cd) == "cafe")
        #expect(StringFolding.fold("Café", options: c) == "café")
        #expect(StringFolding.fold("Café", options: .diacriticInsensitive) == "Cafe")
        #expect(StringFolding.fold("ＡＢＣ", options: c) == "abc")
        #expect(StringFolding.fold("ABC", options: [.caseInsensitive, .normalized]) == "ABC")
        #expect(StringFolding.fold("MiXeD", options: c) == "mixed")
        #expect(StringFolding.options(fromFlags: "cd") == cd)
    }

    @Test func equalityIsByCodePoint() {
        #expect(!StringMatching.equals("é", "e\u{301}"))
        #expect(StringMatching.equals("é", "e\u{301}", options: .diacriticInsensitive))
        #expect(StringMatching.compare("ABC", "abc") < 0)
        #expect(StringMatching.compare("XYZ", "abc") < 0)
        #expect(StringMatching.compare("123", "abc") < 0)
        #expect(StringMatching.compare("abcd", "abc") > 0)
    }

    @Test func substrings() {
        #expect(StringMatching.beginsWith("cafe\u{301}", "cafe"))
        #expect(!StringMatching.beginsWith("aBcDeF", ""))
        #expect(StringMatching.endsWith("Alice", "ice"))
        #expect(!StringMatching.endsWith("Alice", "Ice"))
        #expect(StringMatching.endsWith("Alice", "ICE", options: c))
        #expect(StringMatching.contains("Zürich", "Zur", options: .diacriticInsensitive))
        #expect(!StringMatching.contains("Zürich", "Zur"))
        #expect(!StringMatching.contains("name", "\u{301}", options: .diacriticInsensitive))
    }

    @Test func like() {
        #expect(LikeMatcher.matches("hello", pattern: "hel*o"))
        #expect(!LikeMatcher.matches("heo", pattern: "hel*o"))
        #expect(!LikeMatcher.matches("helo", pattern: "hel?o"))
        #expect(LikeMatcher.matches("hello", pattern: "hel?o"))
        #expect(LikeMatcher.matches("HELLO", pattern: "hello", options: cd))
        #expect(LikeMatcher.matches("naïve", pattern: "naive", options: .diacriticInsensitive))
        #expect(LikeMatcher.matches("a*", pattern: "a\\*"))
        #expect(!LikeMatcher.matches("ab", pattern: "a\\*"))
        #expect(LikeMatcher.matches("C:\\dir", pattern: "C:\\dir"))
        #expect(LikeMatcher.matches("a.c", pattern: "a.c"))
        #expect(!LikeMatcher.matches("abc", pattern: "a.c"))
        #expect(LikeMatcher.matches("", pattern: ""))
        #expect(!LikeMatcher.matches("x", pattern: ""))
        #expect(LikeMatcher.matches("line1\nline2", pattern: "line1?line2"))
        #expect(LikeMatcher.matches("e\u{301}", pattern: "?"))
        #expect(LikeMatcher.matches("aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", pattern: "*a*a*a*a*a*b"))
        #expect(!LikeMatcher.matches("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", pattern: "*a*a*a*a*a*b"))
    }

    @Test func matches() {
        #expect(RegexMatcher.matches("hello", pattern: "hel{2}o"))
        #expect(RegexMatcher.matches("heo", pattern: "he[l]*o"))
        #expect(!RegexMatcher.matches("Alice", pattern: "lic"))
        #expect(RegexMatcher.matches("ab", pattern: "a|ab"))
        #expect(!RegexMatcher.matches("ALICE", pattern: "alice"))
        #expect(RegexMatcher.matches("ALICE", pattern: "alice", options: c))
        #expect(!RegexMatcher.matches("ALICE", pattern: "alice", options: [.caseInsensitive, .normalized]))
        #expect(RegexMatcher.matches("Café", pattern: "Cafe", options: .diacriticInsensitive))
        #expect(!RegexMatcher.matches("", pattern: ""))
        #expect(!RegexMatcher.matches("x", pattern: "("))
        #expect(RegexMatcher.validate(pattern: "(", caseInsensitive: false) != nil)
        #expect(RegexMatcher.validate(pattern: "a+", caseInsensitive: false) == nil)
    }
}
