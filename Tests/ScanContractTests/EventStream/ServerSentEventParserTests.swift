import ScanContract
import Testing

/// Streams as the WHATWG examples and switchd write them, each fed whole, one byte at a time and
/// cut in two at every offset: the pieces must never change what is read.
@Suite("Server-sent event parser")
struct ServerSentEventParserTests {
    /// What `stream` yields however it is cut; records the failing cut.
    private func parsedInEveryCut(_ stream: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> [ServerSentEventParser.Item] {
        var whole = ServerSentEventParser()
        let expected = whole.parse(stream)
        var byteByByte = ServerSentEventParser()
        #expect(stream.flatMap { byteByByte.parse([$0]) } == expected, "one byte at a time", sourceLocation: sourceLocation)
        for cut in 0...stream.count {
            var parser = ServerSentEventParser()
            let items = parser.parse(stream[..<cut]) + parser.parse(stream[cut...])
            #expect(items == expected, "cut at byte \(cut)", sourceLocation: sourceLocation)
        }
        return expected
    }

    private func events(_ items: [ServerSentEventParser.Item]) -> [ServerSentEvent] {
        items.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test func readsSwitchdFramesWithKeepAlives() throws {
        let stream = try ServerSentEvent(id: "3", event: "measurement", data: #"{"sequence":3}"#).encoded()
            + ServerSentEvent.comment("keep-alive")
            + ServerSentEvent(id: "4", event: "measurement", data: #"{"sequence":4}"#).encoded()
        let items = parsedInEveryCut(Array(stream.utf8))
        #expect(items == [
            .event(ServerSentEvent(id: "3", event: "measurement", data: #"{"sequence":3}"#)),
            .comment("keep-alive"),
            .event(ServerSentEvent(id: "4", event: "measurement", data: #"{"sequence":4}"#)),
        ])
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func endsLinesAtLFCRLFAndCR(lineEnd: String) {
        let stream = ["data: YHOO", "data: +2", "data: 10", "", ": no event", "", "event: add", "data:73857293", "", ""]
            .joined(separator: lineEnd)
        #expect(events(parsedInEveryCut(Array(stream.utf8))) == [
            ServerSentEvent(data: "YHOO\n+2\n10"),
            ServerSentEvent(event: "add", data: "73857293"),
        ])
    }

    @Test func mixesLineEndsInOneStream() {
        let items = parsedInEveryCut(Array("data: a\rdata: b\r\ndata: c\n\r\n".utf8))
        #expect(events(items) == [ServerSentEvent(data: "a\nb\nc")])
    }

    @Test func keepsTheLastEventIDForLaterEventsUntilAnEmptyIDClearsIt() {
        let stream = "id: 7\ndata: first\n\ndata: second\n\nid\ndata: third\n\nid: a\0b\ndata: fourth\n\n"
        #expect(events(parsedInEveryCut(Array(stream.utf8))) == [
            ServerSentEvent(id: "7", data: "first"),
            ServerSentEvent(id: "7", data: "second"),
            ServerSentEvent(id: nil, data: "third"),
            ServerSentEvent(id: nil, data: "fourth"),
        ])
    }

    @Test func dispatchesOnlyEventsWithADataLine() {
        // `data` alone is an event with empty data; `event` without data, and the last event
        // that the stream ends before its blank line, are not.
        let stream = "event: lonely\n\ndata\n\ndata:  two spaces\n\ndata: cut off"
        #expect(events(parsedInEveryCut(Array(stream.utf8))) == [
            ServerSentEvent(data: ""),
            ServerSentEvent(data: " two spaces"),
        ])
    }

    @Test func setsTheReconnectionTimeFromDigitsOnly() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("retry: 2500\n\n".utf8)).isEmpty)
        #expect(parser.reconnectionTime == 2500)
        _ = parser.parse(Array("retry: 3s\nretry: -1\nretry:\nretry: 99999999999999999999999\n\n".utf8))
        #expect(parser.reconnectionTime == 2500)
        let items = parsedInEveryCut(Array("retry: 10\ndata: x\n\n".utf8))
        #expect(events(items) == [ServerSentEvent(data: "x")])
    }

    @Test func skipsOneLeadingByteOrderMarkOnly() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let withBOM = parsedInEveryCut(bom + Array("data: x\n\n".utf8))
        #expect(events(withBOM) == [ServerSentEvent(data: "x")])
        // A second BOM is part of the first field name, so that line is an unknown field.
        let twice = parsedInEveryCut(bom + bom + Array("data: x\n\ndata: y\n\n".utf8))
        #expect(events(twice) == [ServerSentEvent(data: "y")])
        // Half a BOM is not one: its bytes stay and read as U+FFFD.
        let half = parsedInEveryCut([0xEF, 0xBB] + Array(":c\n".utf8))
        #expect(half == [])
    }

    @Test func readsMultiByteTextAndInvalidUTF8() {
        let items = parsedInEveryCut(Array("data: Küche ☕︎\n".utf8) + [0x64, 0x61, 0x74, 0x61, 0x3A, 0xFF, 0x0A, 0x0A])
        #expect(events(items) == [ServerSentEvent(data: "Küche ☕︎\n\u{FFFD}")])
    }

    @Test func ignoresUnknownFieldsAndKeepsColonsInValues() {
        let items = parsedInEveryCut(Array("foo: bar\ndata: a: b\nevent:x:y\n\n".utf8))
        #expect(events(items) == [ServerSentEvent(event: "x:y", data: "a: b")])
    }
}
