import GirdersTrema
import Testing

/// What the `TremaPlugin` build plugin generated for this target's `.trm` files, compiled and read back: if
/// anything in the files had become code, this target would not compile or these values would differ.
struct TremaPluginTests {
    @Test func aKeywordAndTheGeneratedMembersNamesStayTextsOfTheirOwn() {
        #expect(Hostile.localized("en").`default` == "keyword")
        #expect(Hostile.localized("en").translator_2 == "not the translator")
        #expect(Hostile.localized("en").language_2 == "not the language")
        #expect(Hostile.translator.masterLanguage == "en")
    }

    @Test func quotesBackslashesAndInterpolationsArriveAsText() {
        #expect(Hostile.localized("en").quoteFatalError == "\"); fatalError(); (\"")
        #expect(Hostile.localized("de").quoteFatalError == ##""quoted" \ C:\Users #"raw"# \(interpolation)"##)
    }

    @Test func lineBreaksAndControlCharactersArriveAsTheyWereWritten() {
        #expect(Hostile.localized("en").lines == "one\rtwo\u{85}three\u{2028}four\u{7F}five")
    }

    @Test func placeholdersBecomeTypedParametersFormattedInTheChosenLanguage() {
        #expect(Hostile.localized("en")._2faCode("X1", 5, 12.5) == "Code X1 expires in 5 minutes (12.5%)")
        #expect(Hostile.localized("de")._2faCode("X1", 5, 12.5) == "Code X1 läuft in 5 Minuten ab (12,5 %)")
        #expect(Hostile.localized("de-CH")._2faCode("X1", 5, 12.5) == "Code X1 läuft in 5 Minuten ab (12,5 %)")
    }

    @Test func aLanguageWithoutAValueFallsBackToTheMasterLanguage() {
        #expect(Hostile.localized("de").lines == Hostile.localized("en").lines)
        #expect(AndroidTexts.localized("rm").normalText == "EN")
        #expect(AndroidTexts.localized("it").normalText == "IT")
    }

    @Test func theStaticMembersUseTheTranslatorsLanguage() {
        let language = AndroidTexts.translator.language
        #expect(["de", "en", "fr", "it"].contains(language))
        #expect(AndroidTexts.normalText == language.uppercased())
        #expect(AndroidTexts.keyWithDots == "Irrelevant")
        #expect(AndroidTexts.localized("fr").doubleQuotes == #"Some text with "double" quotes"#)
    }

    @Test func fifteenPlaceholdersBecomeFifteenParametersAndPointersStayText() {
        let text = AndroidTexts.localized("de").textWithPlaceholders(
            1, 2, 8, 4, 255, 255, 1.5, 2.5, 2.5, 2.5, 2.5, 65, "s", "at", 15)
        #expect(text.hasPrefix("1 2 10 4 ff FF 1,500000 %p Some text with mixed"))
        #expect(text.hasSuffix("iOS and % Android placeholders 15 DE"))
    }
}

/// `Plurals.trm`: the plugin's generated accessors choose each language's form by CLDR's rules.
struct GeneratedPluralTests {
    /// The category of each count comes from `PluralRules`, which GirdersTremaTests check against babel for every
    /// locale; this test checks that the generated code asks it and fills the form.
    @Test(arguments: ["en", "fr", "pl", "ar", "ja"])
    func theCountsChooseTheirFormsAndFillEveryArgument(_ language: String) {
        let texts = Plurals.localized(language)
        let markers: [String: [String: String]] = [
            "en": ["one": "new message in", "other": "new messages in"],
            "fr": ["one": "nouveau message", "many": "de nouveaux", "other": "a {n} nouveaux messages"],
            "pl": ["one": "nową wiadomość", "few": "nowe wiadomości", "many": "nowych", "other": "nowej"],
            "ar": [
                "zero": "لا توجد", "one": "رسالة واحدة", "two": "رسالتان", "few": "رسائل جديدة", "many": "رسالة جديدة",
                "other": "من الرسائل",
            ],
            "ja": ["other": "件あります"],
        ]
        for count in [0, 1, 2, 5, 11, 22, 101] {
            let category = PluralRules(language: language).category(for: count).rawValue
            let text = texts.inboxCount("Ana", count, "Inbox")
            let marker = (markers[language]?[category] ?? "?").replacingOccurrences(of: "{n}", with: "\(count)")
            #expect(text.contains(marker), "\(language) \(count): \(text)")
            #expect(text.contains("Ana") && text.contains("Inbox") && text.contains("\(count)"), "\(text)")
        }
    }

    @Test func aDecimalCountOfOnePointFiveTakesEachLanguagesForm() {
        #expect(Plurals.localized("en").distance(1.5) == "1.5 kilometres")
        #expect(Plurals.localized("fr").distance(1.5) == "1,5 kilomètre")
        #expect(Plurals.localized("pl").distance(1.5) == "1,5 kilometra")
        #expect(Plurals.localized("ar").distance(1.5) == "1.5 كيلومتر")
        #expect(Plurals.localized("ja").distance(1.5) == "1.5 キロメートル")
        #expect(Plurals.localized("en").distance(1) == "1 kilometre")
    }
}
