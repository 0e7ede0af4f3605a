import Positioning
import ScanContract
import SwitchdStore

/// A floor's survey as a GeoJSON FeatureCollection (RFC 7946, `[longitude, latitude]`): rooms
/// (their outline as a polygon when they have one; else the convex hull of their locations: a
/// polygon from three spots that span an area, else the spots as a MultiPoint, else no
/// geometry), locations and beacons (points), and links (lines
/// between their two locations, also to another floor when that floor is geo-referenced).
enum FloorGeoJSON {
    static func collection(of export: FloorExport) -> FloorFeatureCollection {
        var features: [FloorFeature] = []
        let byID = Dictionary(uniqueKeysWithValues: export.locations.map { ($0.id, $0) })
        for room in export.rooms {
            var properties = FloorFeatureProperties(kind: "room", id: room.id)
            properties.name = room.name
            properties.floorID = room.floorID
            let geometry: GeoJSONGeometry?
            if let corners = export.outlineCoordinates[room.id] {
                geometry = polygon(corners)
            } else {
                geometry = outline(export.locations.filter { $0.roomID == room.id }.compactMap(position))
            }
            features.append(FloorFeature(id: "room/\(room.id)", geometry: geometry, properties: properties))
        }
        for location in export.locations where location.floorID == export.floor.id {
            var properties = FloorFeatureProperties(kind: "location", id: location.id)
            properties.name = location.name
            properties.floorID = location.floorID
            properties.roomID = location.roomID
            properties.x = location.x
            properties.y = location.y
            features.append(FloorFeature(id: "location/\(location.id)", geometry: position(location).map(GeoJSONGeometry.point), properties: properties))
        }
        for beacon in export.beacons {
            var properties = FloorFeatureProperties(kind: "beacon", id: beacon.id)
            properties.floorID = beacon.floorID
            properties.x = beacon.x
            properties.y = beacon.y
            properties.uuid = beacon.uuid
            properties.major = beacon.major
            properties.minor = beacon.minor
            properties.metadata = beacon.metadata
            let point = beacon.longitude.flatMap { longitude in beacon.latitude.map { [longitude, $0] } }
            features.append(FloorFeature(id: "beacon/\(beacon.id)", geometry: point.map(GeoJSONGeometry.point), properties: properties))
        }
        for link in export.links {
            var properties = FloorFeatureProperties(kind: "link", id: link.id)
            properties.from = link.from
            properties.to = link.to
            properties.linkKind = link.kind
            properties.distanceMetres = link.distanceMetres
            let ends = [link.from, link.to].compactMap { byID[$0].flatMap(position) }
            features.append(FloorFeature(id: "link/\(link.id)", geometry: ends.count == 2 ? .lineString(ends) : nil, properties: properties))
        }
        return FloorFeatureCollection(features: features)
    }

    private static func position(_ location: Location) -> [Double]? {
        guard let latitude = location.latitude, let longitude = location.longitude else { return nil }
        return [longitude, latitude]
    }

    /// The room's drawn outline as a closed ring, anticlockwise as RFC 7946 asks of an exterior
    /// ring (longitude east, latitude north).
    private static func polygon(_ corners: [[Double]]) -> GeoJSONGeometry {
        var signedArea = 0.0
        for index in corners.indices {
            let (a, b) = (corners[index], corners[(index + 1) % corners.count])
            signedArea += a[0] * b[1] - b[0] * a[1]
        }
        let ring = signedArea < 0 ? Array(corners.reversed()) : corners
        return .polygon([ring + [ring[0]]])
    }

    /// A closed anticlockwise ring round the spots, or the spots themselves when they span no area.
    private static func outline(_ spots: [[Double]]) -> GeoJSONGeometry? {
        guard !spots.isEmpty else { return nil }
        let hull = convexHull(spots.map { (x: $0[0], y: $0[1]) })
        guard hull.count >= 3 else { return .multiPoint(spots) }
        let ring = hull.map { [$0.x, $0.y] }
        return .polygon([ring + [ring[0]]])
    }
}
