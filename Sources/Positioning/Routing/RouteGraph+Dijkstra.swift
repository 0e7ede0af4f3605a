extension RouteGraph {
    /// The shortest path from `start` to `end` (Dijkstra). Of paths equally long, the one with
    /// fewer steps wins, then the one reached through lower location IDs, so the answer does not
    /// depend on the order links were added.
    ///
    /// - Throws: ``RouteError/unknownLocation(_:)`` when either end is not in the graph;
    ///   ``RouteError/unreachable(from:to:)`` when no chain of links joins them.
    public func shortestPath(from start: Int64, to end: Int64) throws(RouteError) -> ShortestPath {
        guard contains(start) else { throw .unknownLocation(start) }
        guard contains(end) else { throw .unknownLocation(end) }
        var best: [Int64: Reach] = [start: Reach(metres: 0, steps: 0, previous: nil)]
        var settled: Set<Int64> = []
        var queue = MinimumHeap<Candidate>()
        queue.insert(Candidate(metres: 0, steps: 0, location: start))
        while let candidate = queue.popMinimum() {
            guard settled.insert(candidate.location).inserted else { continue }
            if candidate.location == end { break }
            for neighbour in neighbours[candidate.location] ?? [] where contains(neighbour.location) && !settled.contains(neighbour.location) {
                let reach = Reach(metres: candidate.metres + neighbour.metres, steps: candidate.steps + 1, previous: candidate.location)
                if best[neighbour.location].map({ reach.isShorter(than: $0) }) ?? true {
                    best[neighbour.location] = reach
                    queue.insert(Candidate(metres: reach.metres, steps: reach.steps, location: neighbour.location))
                }
            }
        }
        guard let arrival = best[end] else { throw .unreachable(from: start, to: end) }
        var path = [end]
        while let previous = best[path[path.count - 1]]?.previous {
            path.append(previous)
        }
        path.reverse()
        let floorChanges = zip(path, path.dropFirst()).filter { floor(of: $0) != floor(of: $1) }.count
        return ShortestPath(path: path, distanceMetres: arrival.metres, floorChanges: floorChanges)
    }

    /// The best way found so far to a location.
    private struct Reach {
        var metres: Double
        var steps: Int
        var previous: Int64?

        /// Shorter, or as long in fewer steps, or as long and as many steps through a lower ID.
        func isShorter(than other: Reach) -> Bool {
            (metres, steps, previous ?? .min) < (other.metres, other.steps, other.previous ?? .min)
        }
    }

    private struct Candidate: Comparable {
        var metres: Double
        var steps: Int
        var location: Int64

        static func < (lhs: Candidate, rhs: Candidate) -> Bool {
            (lhs.metres, lhs.steps, lhs.location) < (rhs.metres, rhs.steps, rhs.location)
        }
    }
}
