import Foundation
import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/rooms`: rooms on floors, and clearing a room's measurements to survey it again.
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

    /// 200 ``ClearedRoom``: the room's measurements are deleted, the room and locations kept.
    @Sendable func clear(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.clearRoom(context.pathID("room")))
    }
}
