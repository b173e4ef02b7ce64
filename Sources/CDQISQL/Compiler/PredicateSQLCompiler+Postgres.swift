import CDQIPredicate

extension PredicateSQLCompiler {
    /// `MATCHES` for PostgreSQL: the constant ICU pattern is translated to an ARE here
    /// (``PostgresRegexTranslator``) and run by `cdqi_matches(subject, are, flags)`. As in
    /// `RegexMatcher`, an empty or invalid pattern never matches, `[d]` folds both sides first and `[c]`
    /// ignores case; flag 1 is case-insensitive matching, flag 2 makes the function refuse a non-ASCII
    /// subject (where the translation would not agree with ICU).
    package func postgresMatches(
        _ lhs: Operand, _ rhs: Operand, options: ComparisonOptions, text: String
    ) throws(PredicateSQLError) -> SQLFragment {
        for operand in [lhs, rhs] {
            if operand.isNullConstant { return dialect.alwaysFalse }
            if let kind = operand.kind, !kind.isString { return dialect.alwaysFalse }
        }
        guard case .string(let pattern)? = rhs.constant else {
            throw .notInDialect(
                dialect: dialect, construct: "MATCHES with a pattern that is not a constant in '\(text)'", offset: nil,
                reason: "the ICU pattern is translated to a PostgreSQL regular expression before the fetch runs")
        }
        let folding = options.effectiveFolding
        if pattern.isEmpty { return dialect.alwaysFalse }
        let source =
            folding.contains(.diacriticInsensitive)
            ? StringFolding.fold(pattern, options: .diacriticInsensitive) : pattern
        let caseInsensitive = folding.contains(.caseInsensitive)
        // What ICU rejects never matches in the evaluator.
        if RegexMatcher.validate(pattern: source, caseInsensitive: caseInsensitive) != nil { return dialect.alwaysFalse }
        let translation: PostgresRegexTranslator.Translation
        switch PostgresRegexTranslator.translate(source, caseInsensitive: caseInsensitive) {
        case .success(let result): translation = result
        case .failure(let refusal):
            throw .notInDialect(
                dialect: dialect, construct: "\(refusal.construct) in the MATCHES pattern of '\(text)'", offset: refusal.offset,
                reason: "PostgreSQL's regular expressions would not match exactly as ICU's")
        }
        var subject = lhs.fragment
        if folding.contains(.diacriticInsensitive) {
            subject = SQLFragment.template(
                "cdqi_fold(%, %)", subject, .bound(.integer(Int64(ComparisonOptions.diacriticInsensitive.rawValue))))
        }
        let flags = (translation.caseInsensitive ? 1 : 0) | (translation.needsASCIISubject ? 2 : 0)
        return SQLFragment.template(
            "cdqi_matches(%, %, %)", subject, .bound(.string(translation.pattern)), .bound(.integer(Int64(flags))))
    }
}
