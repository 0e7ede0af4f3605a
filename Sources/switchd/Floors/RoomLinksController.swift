import Hummingbird
import Positioning
import ScanContract
import SwitchdStore

/// `/v1/rooms/{id}/doors` and `/v1/rooms/{id}/autolink`: how a room joins the rest of the
/// floor, and linking its locations in one step.
struct RoomLinksController {
    let database: AppDatabase
    let svgPlans: SVGPlanReader

    func addRoutes(to routes: Routes) {
        routes.get("/v1/rooms/{id}/doors", .visit, use: doors)
        routes.post("/v1/rooms/{id}/autolink", .admin, use: autolink)
        routes.allowOnly([.get], on: "/v1/rooms/{id}/doors")
        routes.allowOnly([.post], on: "/v1/rooms/{id}/autolink")
    }

    /// 200 with the ``RoomDoor``s: links from the room's locations to locations of other rooms.
    @Sendable func doors(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.doors(ofRoom: context.pathID("room")))
    }

    /// 200 ``AutolinkResult``. Walls come from the floor's SVG plan when it has one and a scale
    /// (``SVGWalls``, read by ``SVGPlanReader``); a PNG or JPEG plan, none, or an SVG that cannot
    /// be read (logged) has no walls to respect.
    @Sendable func autolink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("room")
        let body = try await request.decodeJSON(AutolinkRequest.self, context: context)
        let floor = try await database.floor(database.room(id).floorID)
        var walls: [WallSegment] = []
        if let scale = floor.scale, floor.plan?.contentType == PlanImageFormat.svg.mediaType {
            let plan = try await database.plan(ofFloor: floor.id)
            walls = await svgPlans.walls(of: plan, floor: floor.id, scale: scale, logger: context.logger)
        }
        return try .json(await database.autolink(room: id, body, walls: walls))
    }
}
