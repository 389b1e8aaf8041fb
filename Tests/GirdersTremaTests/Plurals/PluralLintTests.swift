import GirdersTrema
import Testing

/// `trema lint`'s plural rules: each finding names the file, line and column.
struct PluralLintTests {
    /// A document with one plural `n` whose forms are `forms` (category, language, text), each on its own line.
    func findings(_ forms: [(String, String, String)], master: String = "en") throws -> [LintFinding] {
        var body = ""
        var byCategory: [String: [(String, String)]] = [:]
        var order: [String] = []
        for (category, language, text) in forms {
            if byCategory[category] == nil { order.append(category) }
            byCategory[category, default: []].append((language, text))
        }
        for category in order {
            body += "<text key=\"n#\(category)\"><context/>\n"
            for (language, text) in byCategory[category] ?? [] {
                body += "<value lang=\"\(language)\" status=\"verified\">\(text)</value>\n"
            }
            body += "</text>\n"
        }
        return TremaLinter.lint(try parse(tremaXML(body, master: master), file: "p.trm"), android: false)
    }

    @Test func theFixtureWithFiveLanguagesIsClean() throws {
        let document = try TremaDocument(contentsOf: try fixture("plurals.trm"))
        #expect(TremaLinter.lint(document, android: false).isEmpty)
    }

    @Test func aCategoryTheLanguageNeedsIsMissing() throws {
        let found = try findings([
            ("one", "en", "%d file"), ("other", "en", "%d files"), ("one", "pl", "%d plik"),
            ("other", "pl", "%d pliku"),
        ])
        let finding = try #require(found.first { $0.severity == .error })
        #expect(
            finding.description
                == "p.trm:5:1: error: the pl forms of plural 'n' lack few, many (pl uses one, few, many, other)")
    }

    @Test func aCategoryTheLanguageDoesNotUseIsAWarningOnItsLine() throws {
        let found = try findings([("zero", "en", "no files"), ("one", "en", "%d file"), ("other", "en", "%d files")])
        #expect(
            found.map(\.description) == [
                "p.trm:4:1: warning: the en 'zero' form of plural 'n' is never used: en uses one, other"
            ])
    }

    @Test func placeholdersThatDifferBetweenFormsAreAnError() throws {
        let found = try findings([("one", "en", "%d file in %@"), ("other", "en", "%d files in %d")])
        #expect(
            found.contains {
                $0.severity == .error && $0.description.hasPrefix("p.trm:4:1:")
                    && $0.message.contains(
                        "the en 'one' form of plural 'n' has placeholders [1: Int, 2: String], its other form has [1: Int, 2: Int]"
                    )
            })
    }

    @Test func aFormWithoutTheCountIsAnErrorUnlessItsCategoryIsOneNumber() throws {
        // English `one` is 1 only: "One file" is fine but noted. Russian `one` is also 21, 31, ...: an error.
        let english = try findings([("one", "en", "One file"), ("other", "en", "%d files")])
        #expect(english.map(\.severity) == [.warning])
        #expect(english.first?.message.contains("does not show the count (argument 1)") == true)
        let russian = try findings(
            [
                ("one", "ru", "Один файл"), ("few", "ru", "%d файла"), ("many", "ru", "%d файлов"),
                ("other", "ru", "%d файла"),
            ],
            master: "ru")
        let error = try #require(russian.first { $0.severity == .error })
        #expect(
            error.description
                == "p.trm:4:1: error: the ru 'one' form of plural 'n' does not show the count (argument 1); in ru it covers more than one number"
        )
    }

    @Test func aLanguagesOtherFormThatDiffersFromTheMastersIsAnError() throws {
        let found = try findings([
            ("one", "en", "%d file"), ("other", "en", "%d files"), ("one", "fr", "%d fichier"),
            ("many", "fr", "%d de fichiers"),
            ("other", "fr", "%@ fichiers"),
        ])
        #expect(
            found.contains {
                $0.severity == .error
                    && $0.message.hasPrefix("the fr other form of plural 'n' has placeholders [1: String]")
            })
    }

    /// Found by the `trema-roundtrip` fuzz target: Foundation's property list reader drops a U+FEFF that starts a
    /// string, so such a form would lose it on Apple platforms; lint says so.
    @Test func aFormStartingWithAByteOrderMarkIsAWarning() throws {
        let found = try findings([("one", "en", "\u{FEFF}%d file"), ("other", "en", "%d files")])
        #expect(
            found.map(\.description) == [
                "p.trm:4:1: warning: the en 'one' form of plural 'n' starts with U+FEFF, which Foundation drops when it reads a .stringsdict"
            ])
    }
}
