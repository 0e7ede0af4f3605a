import Foundation

/// Names as a search compares them: case and accents ignored.
package enum NameFolding {
    /// `text` decomposed (NFKD), its combining marks (Unicode category Mn) dropped, and lowercased:
    /// "Salle Élysée" and "salle elysee" fold alike, as do "Ｒｏｏｍ" and "room". Letters that are
    /// not a base letter plus marks (ø, ł, ß) stay as they are.
    package static func fold(_ text: String) -> String {
        let scalars = text.decomposedStringWithCompatibilityMapping.unicodeScalars
            .filter { $0.properties.generalCategory != .nonspacingMark }
        return String(String.UnicodeScalarView(scalars)).lowercased()
    }
}
