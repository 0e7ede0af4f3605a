import Foundation
import ScanContract
import SwitchdStore

/// Tags: announced when registered (again when renamed), removed when deleted, their positions
/// published as they are stored.
extension MQTTStatePublisher {
    /// Reads the tags: announces new and changed ones (discovery when on) and removes deleted
    /// ones, those deleted while switchd had no broker included (`mqtt_published_tag`
    /// remembers which have retained state on it); with `withLatestPositions`, publishes each
    /// tag's latest position (a new connection).
    func refreshTags(_ state: inout PublishedState, withLatestPositions: Bool) async throws {
        // Telemetry is published on its own (``publishTelemetry(_:)``): a new battery reading
        // is not a changed tag to announce again.
        let tags = try await database.tags().map { tag in
            var tag = tag
            tag.telemetry = nil
            return tag
        }
        let present = Set(tags.map(\.id))
        let gone = Set(state.tags.keys).union(try await database.mqttPublishedTags()).subtracting(present)
        for tagID in gone.sorted() {
            try await publishAll(topics.removal(ofTag: tagID), kind: "discovery")
            try await database.setMQTTPublished(tags: [tagID], false)
            state.forget(tag: tagID)
            logger.info("Tag gone: removed from the broker", metadata: ["tag": "\(tagID)"])
        }
        let changed = tags.filter { state.tags[$0.id] != $0 }
        if let discovery {
            try await publishAll(try changed.flatMap { try discovery.announce($0) }, kind: "discovery")
        }
        try await database.setMQTTPublished(tags: changed.filter { state.tags[$0.id] == nil }.map(\.id), true)
        for tag in changed { state.tags[tag.id] = tag }
        guard withLatestPositions else { return }
        var latest: [TagPosition] = []
        for tag in tags {
            do {
                latest.append(try await database.latestTagPosition(of: tag.id))
            } catch StoreError.notFound {
                continue
            }
        }
        try await publishTagPositions(latest, &state)
    }

    /// Publishes the tag positions stored since the last read.
    func catchUpTagPositions(_ state: inout PublishedState) async throws {
        while true {
            let slice = try await database.tagPositions(of: nil, since: nil, until: nil, after: state.tagPositionCursor, limit: Self.sliceSize)
            guard let last = slice.items.last else { break }
            // A tag registered since the tags were read: announced before its position.
            if slice.items.contains(where: { state.tags[$0.tagID] == nil }) {
                try await refreshTags(&state, withLatestPositions: false)
            }
            try await publishTagPositions(slice.items, &state)
            state.tagPositionCursor = last.id
        }
    }

    /// The position and room of each tag's newest position among `positions`, when it is newer
    /// than the one published, with its track's room beliefs as they stand.
    private func publishTagPositions(_ positions: [TagPosition], _ state: inout PublishedState) async throws {
        var newest: [Int64: TagPosition] = [:]
        for position in positions where state.tags[position.tagID] != nil {
            if let kept = newest[position.tagID], kept.time >= position.time { continue }
            newest[position.tagID] = position
        }
        guard !newest.isEmpty else { return }
        let (floorNames, roomNames) = try await placeNames()
        var messages: [MQTTMessage] = []
        let heardBy = now()
        for (tagID, position) in newest.sorted(by: { $0.key < $1.key }) {
            guard let tag = state.tags[tagID] else { continue }
            state.tagContacts.heard(from: tagID, at: min(position.time, heardBy))
            // A window located late does not replace a newer one.
            if let published = state.tagPositionTimes[tagID], position.time < published { continue }
            state.tagPositionTimes[tagID] = position.time
            let message = TagPositionMessage(
                position, tagName: tag.name, floorName: floorNames[position.floorID] ?? nil, roomNames: roomNames,
                beliefs: try await database.tagRoomBeliefs(of: tagID)
            )
            messages.append(try .json(message, topic: topics.tagPosition(tagID), retain: true))
            let room = message.room ?? "unknown"
            if state.tagRooms[tagID] != room {
                state.tagRooms[tagID] = room
                messages.append(MQTTMessage(topic: topics.tagRoom(tagID), text: room, qos: .atLeastOnce, retain: true))
            }
        }
        try await publishAll(messages, kind: "tag position")
    }
}
