import Foundation
import ScanContract
import Testing

/// Floor plans are recognised by their bytes: PNG and JPEG by signature, SVG as text whose root is `<svg`.
@Suite struct PlanImageFormatTests {
    @Test func signaturesAndSVGTextAreRecognised() {
        #expect(PlanImageFormat.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
        #expect(PlanImageFormat.detect([0xFF, 0xD8, 0xFF, 0xDB]) == .jpeg)
        #expect(PlanImageFormat.detect(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == .svg)
        let declared = "\u{FEFF}\n  <?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- plan -->\n<!DOCTYPE svg>\n<SVG width=\"1\"/>"
        #expect(PlanImageFormat.detect(Array(declared.utf8)) == .svg)
    }

    @Test func otherBytesAreNoPlan() {
        let refused: [[UInt8]] = [
            [], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A], [0xFF, 0xD8], Array("GIF89a".utf8), Array("hello <svg".utf8),
            Array("<html><body></body></html>".utf8), [0x3C, 0x73, 0x76, 0x67, 0x00], [0x3C, 0xFF, 0xFE, 0x73, 0x76, 0x67],
        ]
        for bytes in refused {
            #expect(PlanImageFormat.detect(bytes) == nil, "\(bytes)")
        }
    }

    @Test func utf16TextWithItsByteOrderMarkIsSVGTextAndWithoutItIsNot() {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"
        let littleEndian = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(PlanImageFormat.detect([0xFF, 0xFE] + littleEndian) == .svg)
        #expect(PlanImageFormat.detect([0xFE, 0xFF] + bigEndian) == .svg)
        #expect(PlanImageFormat.detect([0xFF, 0xFE] + littleEndian.dropLast()) == .svg, "a unit cut at the end")
        #expect(PlanImageFormat.detect(littleEndian) == nil, "no byte-order mark: NULs, so binary")
        #expect(PlanImageFormat.detect([0xFE, 0xFF] + littleEndian) == nil, "the wrong byte order reads as no text starting with <")
        #expect(PlanImageFormat.detect([0xFF, 0xFE, 0x3C, 0x00, 0x00, 0x00] + littleEndian) == nil, "a NUL character")
    }

    @Test func bytesThatAreNoUTF8ReadAsISO88591() {
        let latin1 = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><svg><text>Caf"#.utf8) + [0xE9] + Array("</text></svg>".utf8)
        #expect(PlanImageFormat.detect(latin1) == .svg)
        #expect(PlanImageFormat.detect([0x3C, 0xE9, 0x00] + Array("<svg".utf8)) == nil, "a NUL byte")
    }

    @Test func aRootBeyondTheSearchLimitIsNotFound() {
        let padding = String(repeating: " ", count: PlanImageFormat.svgRootSearchLimit)
        #expect(PlanImageFormat.detect(Array("<!--\(padding)--><svg/>".utf8)) == nil)
    }

    @Test func aCharacterCutAtTheSearchLimitStillReadsAsText() {
        let padding = String(repeating: "a", count: PlanImageFormat.svgRootSearchLimit - 20)
        let text = "<svg><desc>\(padding)ééééééééééééééé</desc></svg>"
        #expect(PlanImageFormat.detect(Array(text.utf8)) == .svg)
    }

    @Test func aFloorPatchTellsLeftOutFromNull() throws {
        let decoder = JSONCoding.decoder()
        #expect(try decoder.decode(FloorPatch.self, from: Data(#"{"name":"A"}"#.utf8)).scale == .unchanged)
        #expect(try decoder.decode(FloorPatch.self, from: Data(#"{"scale":null}"#.utf8)).scale == .set(nil))
        let scale = PlanScale(metresPerPixel: 0.5, originX: 1, originY: 2)
        let patch = FloorPatch(scale: .set(scale))
        #expect(try decoder.decode(FloorPatch.self, from: JSONCoding.encoder().encode(patch)) == patch)
    }
}
