import Hummingbird
import Positioning
import ScanContract
import SwitchdStore

/// `POST /v1/routes`: the shortest walk between two locations over the links, with an ETA at
/// the request's walking speed or switchd's `--walking-speed` and turn-by-turn steps.
struct RoutesController {
    let database: AppDatabase
    /// Metres per second, when the request does not say.
    let walkingSpeed: Double

    func addRoutes(to routes: Routes) {
        routes.post("/v1/routes", .visit, use: find)
        routes.allowOnly([.post], on: "/v1/routes")
    }

    /// 200 ``Route``; 404 naming an unknown location; 422 naming `walkingSpeed` out of range, or
    /// `to` when no chain of links joins the two.
    @Sendable func find(_ request: Request, context: AppRequestContext) async throws -> Response {
        let routeRequest = try await request.decodeJSON(RouteRequest.self, context: context)
        try routeRequest.validate()
        let speed = routeRequest.walkingSpeed ?? walkingSpeed
        let walked: WalkedRoute
        do {
            walked = try await database.walkRoute(from: routeRequest.from, to: routeRequest.to)
        } catch let error as RouteError {
            switch error {
            case .unknownLocation: throw APIError.notFound(error.description)
            case .unreachable: throw APIError.invalidField("to", "\(error.description): add links (POST /v1/links) to join them")
            }
        }
        let found = walked.path
        return try .json(Route(
            from: routeRequest.from, to: routeRequest.to, path: found.path, distanceMetres: found.distanceMetres,
            etaSeconds: found.distanceMetres / speed, walkingSpeed: speed, floorChanges: found.floorChanges, steps: walked.steps
        ))
    }
}
