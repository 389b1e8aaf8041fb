// Prints the texts of Texts.trm and Errors.trm in each language named on the command line (default: en de).
let languages = CommandLine.arguments.count > 1 ? Array(CommandLine.arguments.dropFirst()) : ["en", "de"]
for language in languages {
    let texts = Texts.localized(language)
    print("[\(language)] \(texts.appName) | \(texts.loginWelcome("Ana", 3)) | \(texts.accountBalance(1234.5, "CHF"))")
    print(
        "[\(language)] \(texts.helpMultiline.split(separator: "\n").joined(separator: " / ")) | \(Errors.localized(language).networkOffline)"
    )
}
