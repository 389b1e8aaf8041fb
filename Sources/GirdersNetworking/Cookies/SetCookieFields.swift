import GirdersSupport

/// `Set-Cookie` values that URLSession joined into one field (Apple's and FoundationNetworking's `allHeaderFields`
/// join repeated fields with ", "), split back into one value per cookie.
///
/// A comma separates two cookies when what follows it, up to the next `;` or `,`, is `name=` with a token name;
/// the comma inside an `Expires` date (`Wed, 21 Oct 2099 ...`) is followed by no `=` and stays.
enum SetCookieFields {
    static func split(_ joined: String) -> [String] {
        var values: [String] = []
        var start = joined.startIndex
        var index = joined.startIndex
        while let comma = joined[index...].firstIndex(of: ",") {
            let rest = joined[joined.index(after: comma)...]
            let segment = rest.prefix { $0 != ";" && $0 != "," }
            if let equals = segment.firstIndex(of: "="),
                HTTPCharacters.isToken(segment[..<equals].drop { $0 == " " || $0 == "\t" }.utf8)
            {
                values.append(String(joined[start..<comma]))
                start = rest.startIndex
            }
            index = rest.startIndex
        }
        values.append(String(joined[start...]))
        return values.map { $0.drop { $0 == " " || $0 == "\t" } }.map(String.init).filter { !$0.isEmpty }
    }

}
