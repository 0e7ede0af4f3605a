import NIOCore
import Testing
@testable import switchd

/// The MQTT 3.1.1 packets, byte for byte as the specification lays them out, and a decoder that
/// waits for a whole packet and names the offset of what is wrong.
@Suite("MQTT packets")
struct MQTTPacketTests {
    func bytes(_ packet: MQTTPacket) throws -> [UInt8] {
        var buffer = ByteBuffer()
        try packet.write(to: &buffer)
        return Array(buffer.readableBytesView)
    }

    @Test func connectCarriesTheWillTheLoginAndTheKeepAlive() throws {
        let will = MQTTMessage(topic: "f/s", text: "off", qos: .atLeastOnce, retain: true)
        let packet = MQTTPacket.connect(MQTTConnect(clientID: "c", keepAlive: 30, username: "u", password: "p", will: will))
        // Section 3.1: fixed header, "MQTT", level 4, flags (user, password, will retain, will QoS 1,
        // will, clean session), keep-alive 30, then client ID, will topic, will message, user, password.
        #expect(try bytes(packet) == [
            0x10, 29,
            0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0b1110_1110, 0, 30,
            0, 1, 0x63,
            0, 3, 0x66, 0x2F, 0x73, 0, 3, 0x6F, 0x66, 0x66,
            0, 1, 0x75,
            0, 1, 0x70,
        ])
    }

    @Test func publishAtQoS1HasAPacketIdentifierAndTheRetainFlag() throws {
        let message = MQTTMessage(topic: "a/b", text: "hi", qos: .atLeastOnce, retain: true)
        #expect(try bytes(.publish(MQTTPublish(message: message, packetID: 7))) == [0x33, 9, 0, 3, 0x61, 0x2F, 0x62, 0, 7, 0x68, 0x69])
        let once = MQTTMessage(topic: "a", text: "", qos: .atMostOnce, retain: false)
        #expect(try bytes(.publish(MQTTPublish(message: once))) == [0x30, 3, 0, 1, 0x61])
    }

    @Test func subscribeHasItsReservedFlags() throws {
        #expect(try bytes(.subscribe(packetID: 1, filters: [("x/#", .atLeastOnce)])) == [0x82, 8, 0, 1, 0, 3, 0x78, 0x2F, 0x23, 1])
    }

    @Test func aLongRemainingLengthTakesSeveralBytes() throws {
        let message = MQTTMessage(topic: "t", payload: Array(repeating: 0x41, count: 200), qos: .atMostOnce, retain: false)
        let encoded = try bytes(.publish(MQTTPublish(message: message)))
        // 203 = 0xCB: low seven bits 0x4B with the continuation bit, then 1.
        #expect(Array(encoded.prefix(3)) == [0x30, 0xCB, 0x01])
        var buffer = ByteBuffer(bytes: encoded)
        #expect(try MQTTPacket.read(from: &buffer) == .publish(MQTTPublish(message: message)))
    }

    @Test(arguments: [
        [UInt8]([0x20, 2, 0, 0]),
        [0x30, 5, 0, 1, 0x61, 0x68, 0x69],
        [0x32, 7, 0, 1, 0x61, 0, 9, 0x68, 0x69],
        [0x40, 2, 0x12, 0x34],
        [0x90, 4, 0, 1, 1, 0x80],
        [0xD0, 0],
    ])
    func everyTruncatedPrefixWaitsAndTheWholePacketDecodes(encoded: [UInt8]) throws {
        for length in 0..<encoded.count {
            var buffer = ByteBuffer(bytes: encoded.prefix(length))
            #expect(try MQTTPacket.read(from: &buffer) == nil, "prefix of \(length) bytes")
            #expect(buffer.readableBytes == length, "nothing consumed")
        }
        var buffer = ByteBuffer(bytes: encoded + [0xD0])
        #expect(try MQTTPacket.read(from: &buffer) != nil)
        #expect(buffer.readableBytes == 1, "exactly one packet consumed")
    }

    @Test func decodedPacketsCarryTheirFields() throws {
        var buffer = ByteBuffer(bytes: [0x20, 2, 1, 5, 0x3B, 6, 0, 1, 0x61, 0, 9, 0x68, 0x40, 2, 0x12, 0x34])
        #expect(try MQTTPacket.read(from: &buffer) == .connack(sessionPresent: true, returnCode: 5))
        let message = MQTTMessage(topic: "a", payload: [0x68], qos: .atLeastOnce, retain: true)
        #expect(try MQTTPacket.read(from: &buffer) == .publish(MQTTPublish(message: message, packetID: 9, duplicate: true)))
        #expect(try MQTTPacket.read(from: &buffer) == .puback(packetID: 0x1234))
    }

    @Test(arguments: [
        ([UInt8]([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]), 1, "four bytes"),
        ([0x42, 2, 0, 1], 0, "reserved flags"),
        ([0x40, 3, 0, 1, 9], 4, "after the last field"),
        ([0x30, 3, 0, 5, 0x61], 4, "ends before its topic name"),
        ([0x36, 3, 0, 1, 0x61], 0, "QoS 3"),
        ([0x10, 0], 0, "does not send a client"),
        ([0x30, 3, 0, 1, 0xFF], 2, "not UTF-8"),
    ])
    func malformedPacketsNameTheOffsetAndTheReason(encoded: [UInt8], offset: Int, reason: String) throws {
        var buffer = ByteBuffer(bytes: encoded)
        let error = try #require(throws: MQTTPacketError.self) { try MQTTPacket.read(from: &buffer) }
        #expect(error.offset == offset)
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test func theBackoffDoublesUpToItsMaximumAndStartsOverAfterASuccess() {
        var backoff = ReconnectBackoff(minimum: .milliseconds(500), maximum: .seconds(3))
        #expect((0..<5).map { _ in backoff.delay() } == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(3), .seconds(3)])
        backoff.reset()
        #expect(backoff.delay() == .milliseconds(500))
    }
}
