import Foundation
import Hummingbird
import NIOCore
import ScanContract
import SwitchdStore

/// `/v1/floors/{id}/plan`: the floor's plan image, PNG, JPEG or SVG, as the admin page draws it.
struct FloorPlanController {
    let database: AppDatabase
    /// Larger uploads are refused with 413 `body_too_large`.
    let maxPlanBytes: Int
    /// Reads an SVG upload before it is stored.
    let svgPlans: SVGPlanReader

    func addRoutes(to routes: Routes) {
        routes.put("/v1/floors/{id}/plan", .admin, use: upload)
        routes.get("/v1/floors/{id}/plan", .visit, use: download)
        routes.allowOnly([.get, .put], on: "/v1/floors/{id}/plan")
    }

    /// 200 with the ``Floor`` (its `plan` filled in). The format is read from the bytes; 415
    /// `unsupported_media_type` when they are not PNG, JPEG or SVG (an SVG must parse as XML
    /// with an `svg` root, ``SVGDocument``), 413 over the limit; 422 for an SVG switchd will not
    /// read (``SVGProblem``: `svg_dtd`, `svg_encoding`, `svg_over_budget`). A refused plan leaves
    /// the stored one.
    @Sendable func upload(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.pathID("floor")
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxPlanBytes)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, code: "body_too_large", message: "a floor plan may be at most \(maxPlanBytes) bytes")
        }
        let bytes = buffer.readableBytesView
        guard let format = PlanImageFormat.detect(bytes) else {
            throw APIError(
                .unsupportedMediaType, code: "unsupported_media_type",
                message: "a floor plan must be a PNG, JPEG or SVG image; these \(bytes.count) bytes are none of them"
            )
        }
        let image = Data(bytes)
        if format == .svg, let problem = await svgPlans.problem(in: image) {
            throw problem.apiError
        }
        return try .json(await database.setPlan(ofFloor: id, format: format, image: image, at: .nowInMilliseconds()))
    }

    /// The image with its own `Content-Type`. An SVG may hold scripts: the headers forbid them
    /// (and everything else it could fetch) when the plan is opened on its own.
    @Sendable func download(_ request: Request, context: AppRequestContext) async throws -> Response {
        let plan = try await database.plan(ofFloor: context.pathID("floor"))
        return Response(
            status: .ok,
            headers: [
                .contentType: plan.format.mediaType,
                .contentLength: String(plan.image.count),
                .cacheControl: "no-cache",
                .eTag: "\"\(plan.updated.milliseconds)-\(plan.image.count)\"",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; sandbox",
                .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: plan.image))
        )
    }
}
