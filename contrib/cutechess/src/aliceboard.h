/*
    This file is part of Cute Chess.

    Cute Chess is free software: you can redistribute it and/or modify
    it under the terms of the GNU General Public License as published by
    the Free Software Foundation, either version 3 of the License, or
    (at your option) any later version.

    Cute Chess is distributed in the hope that it will be useful,
    but WITHOUT ANY WARRANTY; without even the implied warranty of
    MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
    GNU General Public License for more details.

    You should have received a copy of the GNU General Public License
    along with Cute Chess.  If not, see <http://www.gnu.org/licenses/>.
*/

#ifndef ALICEBOARD_H
#define ALICEBOARD_H

#include "board.h"

namespace Chess {

class WesternZobrist;

/*!
 * \brief A board for Alice chess
 *
 * Alice chess is played on two boards, A and B, that share their
 * coordinates. The game starts with the standard position on board A
 * and an empty board B. A piece moves as in standard chess on its own
 * board (only pieces on that board block or can be captured) and then
 * transfers to the same square of the other board, which must be empty.
 * A king is in check only from pieces on its own board; a king move
 * must be safe on the board it leaves and on the board it lands on.
 * Castling (from board A only) needs the king's and the rook's
 * destination squares empty on board B. There is no en passant.
 * Draws: stalemate, fifty moves, threefold repetition (the board of
 * every piece counts) and bare kings.
 *
 * A piece on board B has its own piece type; its FEN symbol is the
 * standard letter with a '|' in front (e.g. "|N"), as Fairy-Stockfish
 * writes it. Moves are plain coordinates (e2e4). SAN names the board
 * the piece lands on before any check sign: "Nf3/B", "Bb5/A#".
 *
 * \note Rules: https://www.chessvariants.com/multi.dir/alice.html
 */
class LIB_EXPORT AliceBoard : public Board
{
	public:
		/*! Piece types: board A, then the same pieces on board B. */
		enum AlicePieceType
		{
			Pawn = 1,	//!< Pawn on board A
			Knight,		//!< Knight on board A
			Bishop,		//!< Bishop on board A
			Rook,		//!< Rook on board A
			Queen,		//!< Queen on board A
			King,		//!< King on board A
			PawnB,		//!< Pawn on board B
			KnightB,	//!< Knight on board B
			BishopB,	//!< Bishop on board B
			RookB,		//!< Rook on board B
			QueenB,		//!< Queen on board B
			KingB		//!< King on board B
		};

		/*! Creates a new AliceBoard object. */
		AliceBoard();

		// Inherited from Board
		virtual Board* copy() const;
		virtual QString variant() const;
		virtual int width() const;
		virtual int height() const;
		virtual QString defaultFenString() const;
		virtual Result result();
		virtual int reversibleMoveCount() const;

	protected:
		// Inherited from Board
		virtual void vInitialize();
		virtual QString vFenString(FenNotation notation) const;
		virtual bool vSetFenString(const QStringList& fen);
		virtual QString sanMoveString(const Move& move);
		virtual Move moveFromSanString(const QString& str);
		virtual void vMakeMove(const Move& move,
				       BoardTransition* transition);
		virtual void vUndoMove(const Move& move);
		virtual void generateMovesForPiece(QVarLengthArray<Move>& moves,
						   int pieceType,
						   int square) const;
		virtual bool isLegalPosition();

	private:
		enum CastlingSide { QueenSide, KingSide };

		/*! Creates the board with its zobrist keys. */
		explicit AliceBoard(WesternZobrist* zobrist);

		struct MoveData
		{
			Piece capture;
			int castlingRights;
			int reversibleMoveCount;
		};

		/*! Returns true if \a type is a piece type of board B. */
		static bool isOnB(int type);
		/*! Returns \a type as a board A piece type. */
		static int baseType(int type);
		/*! Returns the piece type \a base on board B if \a onB. */
		static int boardType(int base, bool onB);
		/*! Returns \a piece moved to the other board. */
		static Piece transferred(Piece piece);

		/*! Returns true if \a side attacks \a square on board \a onB. */
		bool isAttacked(int square, Side side, bool onB) const;
		/*! Returns true if \a side's king is attacked on its board. */
		bool inCheck(Side side) const;
		/*! Returns the square of \a side's king (0 if none). */
		int kingSquare(Side side) const;
		/*! Returns true if \a move is a castling move. */
		bool isCastling(const Move& move) const;
		/*! Returns the home square of \a side's rook on \a cside. */
		int rookHome(Side side, CastlingSide cside) const;
		/*! Returns the castling-right bit of \a side on \a cside. */
		static int castlingBit(Side side, CastlingSide cside);
		/*! Sets the castling rights to \a rights (zobrist key too). */
		void setCastlingRights(int rights);
		/*! Drops the rights whose king or rook square is \a square. */
		void removeCastlingRights(int square);
		void addPawnMoves(int source, bool onB,
				  QVarLengthArray<Move>& moves) const;
		void addStepMoves(int source, bool onB,
				  const QVarLengthArray<int>& offsets,
				  QVarLengthArray<Move>& moves) const;
		void addSlideMoves(int source, bool onB,
				   const QVarLengthArray<int>& offsets,
				   QVarLengthArray<Move>& moves) const;
		void addCastlingMoves(int source,
				      QVarLengthArray<Move>& moves) const;
		void addPromotions(int source, int target,
				   QVarLengthArray<Move>& moves) const;
		/*! SAN of \a move without the board suffix and check sign. */
		QString sanBody(const Move& move);

		int m_arwidth;
		int m_castlingRights;
		int m_reversibleMoveCount;
		int m_plyOffset;
		int m_kingSquare[2];
		QVarLengthArray<int> m_knightOffsets;
		QVarLengthArray<int> m_bishopOffsets;
		QVarLengthArray<int> m_rookOffsets;
		QVarLengthArray<int> m_kingOffsets;
		QVector<MoveData> m_history;
		const WesternZobrist* m_zobrist;
};

} // namespace Chess
#endif // ALICEBOARD_H
