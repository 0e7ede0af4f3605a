import Foundation
import Hummingbird
import ScanContract
import SwitchdStore

/// `/v1/floors/{id}/georeference`: the control points that tie a floor's plan to latitude and
/// longitude; and `/v1/floors/{id}/export.geojson`, the floor as GeoJSON once it has them.
struct GeoreferenceController {
    let database: AppDatabase

    func addRoutes(to routes: Routes) {
        routes.put("/v1/floors/{id}/georeference", .admin, use: replace)
        routes.get("/v1/floors/{id}/georeference", .read, use: show)
        routes.delete("/v1/floors/{id}/georeference", .admin, use: delete)
        routes.get("/v1/floors/{id}/export.geojson", .read, use: export)
        routes.allowOnly([.get, .put, .delete], on: "/v1/floors/{id}/georeference")
        routes.allowOnly([.get], on: "/v1/floors/{id}/export.geojson")
    }

    /// 200 ``Georeference`` (the fit and each point's residual); 422 naming `controlPoints` for
    /// fewer than 3 points or points on one line, which leaves the stored points.
    @Sendable func replace(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("floor")
        let new = try await request.decodeJSON(NewGeoreference.self, context: context)
        return try .json(await database.setGeoreference(ofFloor: id, new))
    }

    /// 200 ``Georeference``, or 200 `null` when the floor is not geo-referenced (a normal state the
    /// admin page asks about for every floor, so not an error); 404 when the floor is unknown.
    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try .json(await database.georeference(ofFloor: context.pathID("floor")))
    }

    /// 204, also when the floor had none (idempotent); 404 for an unknown floor.
    @Sendable func delete(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await database.deleteGeoreference(ofFloor: context.pathID("floor"))
        return Response(status: .noContent)
    }

    /// 200 `application/geo+json`; 409 when the floor is not geo-referenced.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        let collection = FloorGeoJSON.collection(of: try await database.floorExport(context.pathID("floor")))
        var response = try Response.json(collection)
        response.headers[.contentType] = "application/geo+json"
        return response
    }
}
