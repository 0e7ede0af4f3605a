import Foundation
import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/rooms`: rooms on floors, their outlines, and clearing a room's measurements to survey it again.
struct RoomsController {
    let database: AppDatabase
    let hub: SwitchHub

    func addRoutes(to routes: Routes) {
        routes.post("/v1/rooms", .admin, use: create)
        routes.get("/v1/rooms", .visit, use: list)
        routes.get("/v1/rooms/{id}", .visit, use: show)
        routes.patch("/v1/rooms/{id}", .admin, use: update)
        routes.delete("/v1/rooms/{id}", .admin, use: delete)
        routes.post("/v1/rooms/{id}/clear", .admin, use: clear)
        routes.allowOnly([.get, .post], on: "/v1/rooms")
        routes.allowOnly([.get, .patch, .delete], on: "/v1/rooms/{id}")
        routes.allowOnly([.post], on: "/v1/rooms/{id}/clear")
        routes.get("/v1/rooms/{id}/outline", .visit, use: showOutline)
        routes.put("/v1/rooms/{id}/outline", .admin, use: setOutline)
        routes.delete("/v1/rooms/{id}/outline", .admin, use: deleteOutline)
        routes.allowOnly([.get, .put, .delete], on: "/v1/rooms/{id}/outline")
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let new = try await request.decodeJSON(NewRoom.self, context: context)
        return try .json(await database.createRoom(new), status: .created)
    }

    /// All rooms, or with `?floor=` those of one floor (404 when it does not exist); with `?q=`
    /// those whose name holds the text, case and accents ignored, names starting with it first.
    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = QueryParameters(request)
        let floorID = try query.int64("floor")
        if let text = query.text("q") {
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty, text.count <= maxNameLength else {
                throw APIError.invalidField("q", "must hold 1 to \(maxNameLength) characters besides spaces")
            }
            return try .json(await database.rooms(named: text, onFloor: floorID))
        }
        return try .json(await database.rooms(onFloor: floorID))
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.room(context.pathID("room")))
    }

    /// 200 with the room as it now is (renamed).
    @Sendable func update(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("room")
        let patch = try await request.decodeJSON(RoomPatch.self, context: context)
        return try .json(await database.updateRoom(id, with: patch))
    }

    /// 204; the room's locations and measurements go with it.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deletion = try await database.deleteRoom(context.pathID("room"), at: .nowInMilliseconds())
        await hub.publish(deletion.switchesTurnedOff)
        return Response(status: .noContent)
    }

    /// 200 ``RoomOutline``; 404 for an unknown room or one without an outline.
    @Sendable func showOutline(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.roomOutline(context.pathID("room")))
    }

    /// 200 with the room and its new outline (``RoomOutline``), replacing any it had; 422 naming
    /// the problem (too few or too many corners, a coordinate not finite or out of range, edges
    /// that cross), the outline stored staying as it was.
    @Sendable func setOutline(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("room")
        let outline = try await request.decodeJSON(RoomOutline.self, context: context)
        return try .json(await database.setRoomOutline(id, to: outline))
    }

    /// 204, also when the room had no outline; 404 for an unknown room.
    @Sendable func deleteOutline(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await database.deleteRoomOutline(context.pathID("room"))
        return Response(status: .noContent)
    }

    /// 200 ``ClearedRoom``: the room's measurements are deleted, the room and locations kept.
    @Sendable func clear(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.clearRoom(context.pathID("room")))
    }
}
