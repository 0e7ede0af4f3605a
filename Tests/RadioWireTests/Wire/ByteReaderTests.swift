@testable import RadioWire
import Testing

@Suite("Wire: ByteReader")
struct ByteReaderTests {
    @Test func readsIntegersInBothByteOrders() throws {
        var reader = ByteReader([0x01, 0x34, 0x12, 0x12, 0x34, 0x78, 0x56, 0x34, 0x12, 0x12, 0x34, 0x56, 0x78, 0xFE])
        #expect(try reader.u8() == 0x01)
        #expect(try reader.u16le() == 0x1234)
        #expect(try reader.u16be() == 0x1234)
        #expect(try reader.u32le() == 0x1234_5678)
        #expect(try reader.u32be() == 0x1234_5678)
        #expect(try reader.i8() == -2)
        #expect(reader.isAtEnd)
    }

    @Test func readsSixtyFourBitIntegers() throws {
        let bytes: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        var little = ByteReader(bytes)
        var big = ByteReader(bytes)
        #expect(try little.u64le() == 0x0807_0605_0403_0201)
        #expect(try big.u64be() == 0x0102_0304_0506_0708)
    }

    @Test func aShortReadThrowsWithOffsetAndFieldAndLeavesNothingConsumed() throws {
        var reader = ByteReader([0xAA, 0xBB, 0xCC])
        _ = try reader.u8()
        #expect(throws: WireError(offset: 1, reason: "length needs 4 bytes, only 2 left")) { try reader.u32le("length") }
        #expect(reader.offset == 1)
        #expect(try reader.take(2) == [0xBB, 0xCC])
        #expect(throws: WireError.self) { try reader.u8() }
    }

    @Test func takeSkipAndRest() throws {
        var reader = ByteReader([1, 2, 3, 4, 5])
        #expect(try reader.take(2) == [1, 2])
        try reader.skip(1)
        #expect(reader.remaining == 2)
        #expect(reader.rest() == [4, 5])
        #expect(reader.isAtEnd)
        #expect(throws: WireError.self) { try reader.take(1) }
        #expect(throws: WireError.self) { try reader.take(-1) }
    }

    @Test func aNestedReaderReportsOffsetsInTheOuterBuffer() throws {
        var outer = ByteReader([9, 9, 9, 1, 2], origin: 100)
        try outer.skip(3)
        var inner = try outer.reader(2)
        #expect(outer.isAtEnd)
        #expect(inner.offset == 103)
        #expect(try inner.u16le() == 0x0201)
        let error = try #require(throws: WireError.self) { try inner.u8("tail") }
        #expect(error.offset == 105)
        #expect(error.description == "byte 105: tail needs 1 byte, only 0 left")
    }
}
