import ScanContract
import Testing

@Suite("Server-sent event encoding")
struct ServerSentEventEncodingTests {
    @Test func writesIDEventAndOneDataLinePerLine() throws {
        let event = ServerSentEvent(id: "12", event: "switch", data: "one\ntwo\r\nthree\rfour")
        #expect(try event.encoded() == "id: 12\nevent: switch\ndata: one\ndata: two\ndata: three\ndata: four\n\n")
        #expect(try ServerSentEvent(data: "").encoded() == "data: \n\n", "the default type is not written")
    }

    @Test(arguments: ["", "plain", "a\nb", "trailing\n", "\n\nlead", " spaced ", "cr\rlf\r\nmix", "{\"k\":\"é\"}"])
    func readsBackWhatItWrites(data: String) throws {
        let event = ServerSentEvent(id: "5", event: "position", data: data)
        var parser = ServerSentEventParser()
        let normalised = data.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        #expect(parser.parse(Array(try event.encoded().utf8)) == [.event(ServerSentEvent(id: "5", event: "position", data: normalised))])
    }

    @Test func refusesLineBreaksInIDAndEvent() {
        #expect(throws: ServerSentEvent.EncodingError(field: "id", value: "1\n2")) {
            try ServerSentEvent(id: "1\n2", data: "x").encoded()
        }
        #expect(throws: ServerSentEvent.EncodingError(field: "id", value: "1\0")) {
            try ServerSentEvent(id: "1\0", data: "x").encoded()
        }
        #expect(throws: ServerSentEvent.EncodingError(field: "event", value: "a\rb")) {
            try ServerSentEvent(event: "a\rb", data: "x").encoded()
        }
    }

    @Test func writesCommentsThatNoClientDispatches() {
        #expect(ServerSentEvent.comment("keep-alive") == ": keep-alive\n\n")
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array(ServerSentEvent.comment("a\nb").utf8)) == [.comment("a"), .comment("b")])
    }
}
