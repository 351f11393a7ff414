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

#include "aliceboard.h"
#include <QRegularExpression>
#include <QStringList>
#include "boardtransition.h"
#include "westernzobrist.h"

namespace Chess {

AliceBoard::AliceBoard()
	: AliceBoard(new WesternZobrist())
{
}

AliceBoard::AliceBoard(WesternZobrist* zobrist)
	: Board(zobrist),
	  m_arwidth(0),
	  m_castlingRights(0),
	  m_reversibleMoveCount(0),
	  m_plyOffset(0),
	  m_zobrist(zobrist)
{
	m_kingSquare[Side::White] = 0;
	m_kingSquare[Side::Black] = 0;

	// Board A: the standard pieces. Board B: the same pieces with
	// a '|' in front of their FEN symbol (Fairy-Stockfish's notation).
	setPieceType(Pawn, tr("pawn"), "P");
	setPieceType(Knight, tr("knight"), "N");
	setPieceType(Bishop, tr("bishop"), "B");
	setPieceType(Rook, tr("rook"), "R");
	setPieceType(Queen, tr("queen"), "Q");
	setPieceType(King, tr("king"), "K");
	setPieceType(PawnB, tr("pawn on board B"), "|P");
	setPieceType(KnightB, tr("knight on board B"), "|N");
	setPieceType(BishopB, tr("bishop on board B"), "|B");
	setPieceType(RookB, tr("rook on board B"), "|R");
	setPieceType(QueenB, tr("queen on board B"), "|Q");
	setPieceType(KingB, tr("king on board B"), "|K");
}

Board* AliceBoard::copy() const
{
	return new AliceBoard(*this);
}

QString AliceBoard::variant() const
{
	return "alice";
}

int AliceBoard::width() const
{
	return 8;
}

int AliceBoard::height() const
{
	return 8;
}

QString AliceBoard::defaultFenString() const
{
	return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
}

int AliceBoard::reversibleMoveCount() const
{
	return m_reversibleMoveCount;
}

bool AliceBoard::isOnB(int type)
{
	return type >= PawnB && type <= KingB;
}

int AliceBoard::baseType(int type)
{
	return isOnB(type) ? type - (PawnB - Pawn) : type;
}

int AliceBoard::boardType(int base, bool onB)
{
	return onB ? base + (PawnB - Pawn) : base;
}

Piece AliceBoard::transferred(Piece piece)
{
	int type = piece.type();
	return Piece(piece.side(), boardType(baseType(type), !isOnB(type)));
}

void AliceBoard::vInitialize()
{
	m_arwidth = width() + 2;

	m_knightOffsets.resize(8);
	m_knightOffsets[0] = -2 * m_arwidth - 1;
	m_knightOffsets[1] = -2 * m_arwidth + 1;
	m_knightOffsets[2] = -m_arwidth - 2;
	m_knightOffsets[3] = -m_arwidth + 2;
	m_knightOffsets[4] = m_arwidth - 2;
	m_knightOffsets[5] = m_arwidth + 2;
	m_knightOffsets[6] = 2 * m_arwidth - 1;
	m_knightOffsets[7] = 2 * m_arwidth + 1;

	m_bishopOffsets.resize(4);
	m_bishopOffsets[0] = -m_arwidth - 1;
	m_bishopOffsets[1] = -m_arwidth + 1;
	m_bishopOffsets[2] = m_arwidth - 1;
	m_bishopOffsets[3] = m_arwidth + 1;

	m_rookOffsets.resize(4);
	m_rookOffsets[0] = -m_arwidth;
	m_rookOffsets[1] = -1;
	m_rookOffsets[2] = 1;
	m_rookOffsets[3] = m_arwidth;

	m_kingOffsets.clear();
	m_kingOffsets.append(m_bishopOffsets.constData(), m_bishopOffsets.size());
	m_kingOffsets.append(m_rookOffsets.constData(), m_rookOffsets.size());
}

int AliceBoard::castlingBit(Side side, CastlingSide cside)
{
	return 1 << (side * 2 + cside);
}

int AliceBoard::rookHome(Side side, CastlingSide cside) const
{
	int rank = (side == Side::White) ? 0 : height() - 1;
	int file = (cside == KingSide) ? width() - 1 : 0;
	return squareIndex(Square(file, rank));
}

void AliceBoard::setCastlingRights(int rights)
{
	for (int s = Side::White; s <= Side::Black; s++)
	{
		Side side = Side::Type(s);
		for (CastlingSide cside : {QueenSide, KingSide})
		{
			int bit = castlingBit(side, cside);
			if ((rights & bit) != (m_castlingRights & bit))
				xorKey(m_zobrist->castling(side,
							   rookHome(side, cside)));
		}
	}
	m_castlingRights = rights;
}

void AliceBoard::removeCastlingRights(int square)
{
	int rights = m_castlingRights;
	for (int s = Side::White; s <= Side::Black; s++)
	{
		Side side = Side::Type(s);
		int kingHome = squareIndex(Square(4, side == Side::White ? 0 : 7));
		for (CastlingSide cside : {QueenSide, KingSide})
		{
			if (square == kingHome || square == rookHome(side, cside))
				rights &= ~castlingBit(side, cside);
		}
	}
	if (rights != m_castlingRights)
		setCastlingRights(rights);
}

bool AliceBoard::isCastling(const Move& move) const
{
	Piece piece = pieceAt(move.sourceSquare());
	if (piece.isValid() && baseType(piece.type()) == King)
	{
		int diff = move.targetSquare() - move.sourceSquare();
		return diff == 2 || diff == -2;
	}
	return false;
}

bool AliceBoard::isAttacked(int square, Side side, bool onB) const
{
	auto holds = [&](int sq, int base)
	{
		Piece piece = pieceAt(sq);
		return piece.isValid() && piece.side() == side
		    && isOnB(piece.type()) == onB
		    && baseType(piece.type()) == base;
	};

	// A pawn of 'side' attacks from one rank behind (its direction).
	int behind = (side == Side::White) ? m_arwidth : -m_arwidth;
	if (holds(square + behind - 1, Pawn) || holds(square + behind + 1, Pawn))
		return true;
	for (int offset : m_knightOffsets)
		if (holds(square + offset, Knight))
			return true;
	for (int offset : m_kingOffsets)
		if (holds(square + offset, King))
			return true;

	// Sliders: only pieces on board 'onB' block their lines.
	for (int pass = 0; pass < 2; pass++)
	{
		const QVarLengthArray<int>& offsets =
			pass == 0 ? m_bishopOffsets : m_rookOffsets;
		int slider = pass == 0 ? Bishop : Rook;
		for (int offset : offsets)
		{
			for (int sq = square + offset; ; sq += offset)
			{
				Piece piece = pieceAt(sq);
				if (piece.isWall())
					break;
				if (!piece.isValid() || isOnB(piece.type()) != onB)
					continue;
				int base = baseType(piece.type());
				if (piece.side() == side
				&&  (base == slider || base == Queen))
					return true;
				break;
			}
		}
	}
	return false;
}

bool AliceBoard::inCheck(Side side) const
{
	int square = m_kingSquare[side];
	if (square == 0)
		return false;
	return isAttacked(square, side.opposite(),
			  isOnB(pieceAt(square).type()));
}

void AliceBoard::addPromotions(int source,
			       int target,
			       QVarLengthArray<Move>& moves) const
{
	int rank = chessSquare(target).rank();
	if (rank == 0 || rank == height() - 1)
	{
		moves.append(Move(source, target, Knight));
		moves.append(Move(source, target, Bishop));
		moves.append(Move(source, target, Rook));
		moves.append(Move(source, target, Queen));
	}
	else
		moves.append(Move(source, target));
}

void AliceBoard::addPawnMoves(int source,
			      bool onB,
			      QVarLengthArray<Move>& moves) const
{
	Side side = sideToMove();
	int forward = (side == Side::White) ? -m_arwidth : m_arwidth;
	int one = source + forward;
	Piece ahead = pieceAt(one);

	// A push needs the landing square empty on both boards.
	if (ahead.isEmpty())
		addPromotions(source, one, moves);

	// The double step's passed square only needs to be empty on
	// the pawn's own board.
	int startRank = (side == Side::White) ? 1 : height() - 2;
	if (chessSquare(source).rank() == startRank
	&&  (ahead.isEmpty() || isOnB(ahead.type()) != onB)
	&&  pieceAt(one + forward).isEmpty())
		moves.append(Move(source, one + forward));

	for (int target : {one - 1, one + 1})
	{
		Piece capture = pieceAt(target);
		if (capture.isValid() && capture.side() != side
		&&  isOnB(capture.type()) == onB)
			addPromotions(source, target, moves);
	}
}

void AliceBoard::addStepMoves(int source,
			      bool onB,
			      const QVarLengthArray<int>& offsets,
			      QVarLengthArray<Move>& moves) const
{
	Side side = sideToMove();
	for (int offset : offsets)
	{
		int target = source + offset;
		Piece piece = pieceAt(target);
		if (piece.isEmpty()
		||  (piece.isValid() && piece.side() != side
		     && isOnB(piece.type()) == onB))
			moves.append(Move(source, target));
	}
}

void AliceBoard::addSlideMoves(int source,
			       bool onB,
			       const QVarLengthArray<int>& offsets,
			       QVarLengthArray<Move>& moves) const
{
	Side side = sideToMove();
	for (int offset : offsets)
	{
		for (int target = source + offset; ; target += offset)
		{
			Piece piece = pieceAt(target);
			if (piece.isWall())
				break;
			if (piece.isEmpty())
			{
				moves.append(Move(source, target));
				continue;
			}
			// A piece on the other board does not block, but the
			// moving piece cannot land on its square.
			if (isOnB(piece.type()) != onB)
				continue;
			if (piece.side() != side)
				moves.append(Move(source, target));
			break;
		}
	}
}

void AliceBoard::addCastlingMoves(int source,
				  QVarLengthArray<Move>& moves) const
{
	Side side = sideToMove();
	int rank = (side == Side::White) ? 0 : height() - 1;
	if (source != squareIndex(Square(4, rank)) || inCheck(side))
		return;

	Side opponent = side.opposite();
	for (CastlingSide cside : {KingSide, QueenSide})
	{
		if (!(m_castlingRights & castlingBit(side, cside)))
			continue;
		if (pieceAt(rookHome(side, cside)) != Piece(side, Rook))
			continue;

		int step = (cside == KingSide) ? 1 : -1;
		int kingTarget = source + 2 * step;
		int rookTarget = source + step;
		bool ok = true;
		// Between king and rook: empty on board A.
		for (int sq = source + step; sq != rookHome(side, cside); sq += step)
		{
			Piece piece = pieceAt(sq);
			if (piece.isValid() && !isOnB(piece.type()))
				ok = false;
		}
		// The king's and the rook's destinations: empty on board B.
		if (!pieceAt(kingTarget).isEmpty() || !pieceAt(rookTarget).isEmpty())
			ok = false;
		// The squares the king crosses and lands on: not attacked on A.
		if (ok && (isAttacked(rookTarget, opponent, false)
			   || isAttacked(kingTarget, opponent, false)))
			ok = false;
		if (ok)
			moves.append(Move(source, kingTarget));
	}
}

void AliceBoard::generateMovesForPiece(QVarLengthArray<Move>& moves,
				       int pieceType,
				       int square) const
{
	bool onB = isOnB(pieceType);
	switch (baseType(pieceType))
	{
	case Pawn:
		addPawnMoves(square, onB, moves);
		break;
	case Knight:
		addStepMoves(square, onB, m_knightOffsets, moves);
		break;
	case Bishop:
		addSlideMoves(square, onB, m_bishopOffsets, moves);
		break;
	case Rook:
		addSlideMoves(square, onB, m_rookOffsets, moves);
		break;
	case Queen:
		addSlideMoves(square, onB, m_kingOffsets, moves);
		break;
	case King:
		addStepMoves(square, onB, m_kingOffsets, moves);
		if (!onB && m_castlingRights != 0)
			addCastlingMoves(square, moves);
		break;
	default:
		break;
	}
}

bool AliceBoard::isLegalPosition()
{
	// The side that just moved must not be in check on its king's board.
	Side side = sideToMove().opposite();
	int square = m_kingSquare[side];
	if (square == 0)
		return false;
	bool onB = isOnB(pieceAt(square).type());
	if (isAttacked(square, sideToMove(), onB))
		return false;

	// A king that just moved must also be safe on the board it left.
	if (plyCount() > 0 && lastMove().targetSquare() == square
	&&  isAttacked(square, sideToMove(), !onB))
		return false;
	return true;
}

void AliceBoard::vMakeMove(const Move& move, BoardTransition* transition)
{
	Side side = sideToMove();
	int source = move.sourceSquare();
	int target = move.targetSquare();
	Piece piece = pieceAt(source);
	Piece capture = pieceAt(target);
	int base = baseType(piece.type());

	MoveData md = { capture, m_castlingRights, m_reversibleMoveCount };
	m_history.append(md);

	if (isCastling(move))
	{
		bool kingSide = target > source;
		int rookSource = rookHome(side, kingSide ? KingSide : QueenSide);
		int rookTarget = kingSide ? source + 1 : source - 1;
		Piece rook = pieceAt(rookSource);
		setSquare(rookSource, Piece::NoPiece);
		setSquare(rookTarget, transferred(rook));
		if (transition != nullptr)
			transition->addMove(chessSquare(rookSource),
					    chessSquare(rookTarget));
	}

	Piece moved = transferred(piece);
	if (move.promotion() != Piece::NoPiece)
		moved = Piece(side, boardType(move.promotion(),
					      !isOnB(piece.type())));
	setSquare(source, Piece::NoPiece);
	setSquare(target, moved);
	if (base == King)
		m_kingSquare[side] = target;

	removeCastlingRights(source);
	removeCastlingRights(target);

	if (capture.isValid() || base == Pawn)
		m_reversibleMoveCount = 0;
	else
		m_reversibleMoveCount++;

	if (transition != nullptr)
		transition->addMove(chessSquare(source), chessSquare(target));
}

void AliceBoard::vUndoMove(const Move& move)
{
	Side side = sideToMove();
	int source = move.sourceSquare();
	int target = move.targetSquare();
	Piece moved = pieceAt(target);
	MoveData md = m_history.takeLast();

	Piece piece = transferred(moved);
	if (move.promotion() != Piece::NoPiece)
		piece = Piece(side, boardType(Pawn, !isOnB(moved.type())));
	setSquare(target, md.capture);
	setSquare(source, piece);
	if (baseType(piece.type()) == King)
	{
		m_kingSquare[side] = source;
		int diff = target - source;
		if (diff == 2 || diff == -2)
		{
			bool kingSide = diff > 0;
			int rookSource = rookHome(side, kingSide ? KingSide : QueenSide);
			int rookTarget = kingSide ? source + 1 : source - 1;
			setSquare(rookSource, transferred(pieceAt(rookTarget)));
			setSquare(rookTarget, Piece::NoPiece);
		}
	}

	// Board::undoMove() restores the zobrist key.
	m_castlingRights = md.castlingRights;
	m_reversibleMoveCount = md.reversibleMoveCount;
}

QString AliceBoard::vFenString(FenNotation notation) const
{
	Q_UNUSED(notation);
	QString castling;
	const char letters[] = { 'Q', 'K' };
	for (int s = Side::White; s <= Side::Black; s++)
	{
		Side side = Side::Type(s);
		for (CastlingSide cside : {KingSide, QueenSide})
		{
			if (!(m_castlingRights & castlingBit(side, cside)))
				continue;
			QChar c(letters[cside]);
			castling += (side == Side::White) ? c : c.toLower();
		}
	}
	if (castling.isEmpty())
		castling = "-";

	int fullMove = (m_plyOffset + plyCount()) / 2 + 1;
	return QString("%1 - %2 %3").arg(castling)
				    .arg(m_reversibleMoveCount)
				    .arg(fullMove);
}

bool AliceBoard::vSetFenString(const QStringList& fen)
{
	if (fen.size() < 2 || fen.size() > 4)
		return false;

	m_history.clear();
	m_castlingRights = 0;
	m_kingSquare[Side::White] = 0;
	m_kingSquare[Side::Black] = 0;

	// Exactly one king a side, no pawn on the first or last rank.
	for (int sq = 0; sq < arraySize(); sq++)
	{
		Piece piece = pieceAt(sq);
		if (!piece.isValid())
			continue;
		int base = baseType(piece.type());
		if (base == King)
		{
			if (m_kingSquare[piece.side()] != 0)
				return false;
			m_kingSquare[piece.side()] = sq;
		}
		int rank = chessSquare(sq).rank();
		if (base == Pawn && (rank == 0 || rank == height() - 1))
			return false;
	}
	if (m_kingSquare[Side::White] == 0 || m_kingSquare[Side::Black] == 0)
		return false;

	// Castling rights: a right whose king and rook are not at home
	// on board A is dropped (as engines and python-chess do).
	int rights = 0;
	if (fen[0] != "-")
	{
		for (QChar c : fen[0])
		{
			Side side = c.isUpper() ? Side::White : Side::Black;
			CastlingSide cside;
			if (c.toUpper() == 'K')
				cside = KingSide;
			else if (c.toUpper() == 'Q')
				cside = QueenSide;
			else
				return false;
			int kingHome = squareIndex(Square(4, side == Side::White ? 0 : 7));
			if (pieceAt(kingHome) == Piece(side, King)
			&&  pieceAt(rookHome(side, cside)) == Piece(side, Rook))
				rights |= castlingBit(side, cside);
		}
	}
	setCastlingRights(rights);

	// No en passant in Alice chess.
	if (fen[1] != "-")
		return false;

	bool ok = true;
	m_reversibleMoveCount = 0;
	if (fen.size() >= 3)
	{
		m_reversibleMoveCount = fen[2].toInt(&ok);
		if (!ok || m_reversibleMoveCount < 0)
			return false;
	}
	int fullMove = 1;
	if (fen.size() >= 4)
	{
		fullMove = fen[3].toInt(&ok);
		if (!ok || fullMove < 1)
			return false;
	}
	m_plyOffset = 2 * (fullMove - 1)
		    + (sideToMove() == Side::Black ? 1 : 0);
	return true;
}

QString AliceBoard::sanBody(const Move& move)
{
	int source = move.sourceSquare();
	int target = move.targetSquare();
	Piece piece = pieceAt(source);
	int base = baseType(piece.type());

	if (isCastling(move))
		return target > source ? "O-O" : "O-O-O";

	bool capture = pieceAt(target).isValid();
	Square from = chessSquare(source);
	QString str;

	// Disambiguation among the legal moves only (any board).
	bool rivals = false;
	bool sameFile = false;
	bool sameRank = false;
	if (base != Pawn || !capture)
	{
		const QVector<Move> legal = legalMoves();
		for (const Move& other : legal)
		{
			int os = other.sourceSquare();
			if (other.targetSquare() != target || os == source
			||  baseType(pieceAt(os).type()) != base)
				continue;
			rivals = true;
			sameFile |= chessSquare(os).file() == from.file();
			sameRank |= chessSquare(os).rank() == from.rank();
		}
	}
	QString square = squareString(source);
	if (base != Pawn)
		str += pieceSymbol(Piece(Side::White, base));
	if (base == Pawn && capture)
		str += square.left(1);
	else if (rivals && !sameFile)
		str += square.left(1);
	else if (rivals && !sameRank)
		str += square.mid(1);
	else if (rivals)
		str += square;
	if (capture)
		str += 'x';
	str += squareString(target);
	if (move.promotion() != Piece::NoPiece)
		str += '=' + pieceSymbol(Piece(Side::White, move.promotion()));
	return str;
}

QString AliceBoard::sanMoveString(const Move& move)
{
	bool fromB = isOnB(pieceAt(move.sourceSquare()).type());
	QString str = sanBody(move) + (fromB ? "/A" : "/B");

	makeMove(move);
	if (inCheck(sideToMove()))
		str += canMove() ? '+' : '#';
	undoMove();
	return str;
}

Move AliceBoard::moveFromSanString(const QString& str)
{
	static const QRegularExpression re(
		"^(?:(O-O-O|0-0-0|O-O|0-0)|([NBRQK])?([a-h])?([1-8])?x?"
		"([a-h][1-8])(?:=?([NBRQ]))?)(?:/([ABab]))?$");

	QString text = str.trimmed();
	while (!text.isEmpty() && QString("+#!?").contains(text.back()))
		text.chop(1);
	QRegularExpressionMatch m = re.match(text);
	if (!m.hasMatch())
		return Move();

	QString castling = m.captured(1);
	int base = m.captured(2).isEmpty() ? Pawn
		 : baseType(pieceFromSymbol(m.captured(2)).type());
	QString file = m.captured(3);
	QString rank = m.captured(4);
	int target = m.captured(5).isEmpty() ? 0 : squareIndex(m.captured(5));
	int promotion = m.captured(6).isEmpty() ? Piece::NoPiece
		      : pieceFromSymbol(m.captured(6)).type();
	QString board = m.captured(7).toUpper();

	QVector<Move> found;
	const QVector<Move> legal = legalMoves();
	for (const Move& move : legal)
	{
		int source = move.sourceSquare();
		Piece piece = pieceAt(source);
		QString from = squareString(source);
		if (!castling.isEmpty())
		{
			int diff = move.targetSquare() - source;
			if (!isCastling(move) || (diff > 0) != (castling.size() == 3))
				continue;
		}
		else if (move.targetSquare() != target
		     ||  baseType(piece.type()) != base
		     ||  move.promotion() != promotion
		     ||  (!file.isEmpty() && from.left(1) != file)
		     ||  (!rank.isEmpty() && from.mid(1) != rank)
		     ||  (base == Pawn && file.isEmpty()
			  && from.left(1) != m.captured(5).left(1)))
			continue;
		found << move;
	}
	// The board suffix tells apart two pawns of one file.
	if (found.size() > 1 && !board.isEmpty())
	{
		QVector<Move> narrowed;
		for (const Move& move : found)
		{
			bool fromB = isOnB(pieceAt(move.sourceSquare()).type());
			if ((fromB ? "A" : "B") == board)
				narrowed << move;
		}
		found = narrowed;
	}
	if (found.size() != 1)
		return Move();
	// A wrong board suffix is an error, not a silent fix.
	bool fromB = isOnB(pieceAt(found[0].sourceSquare()).type());
	if (!board.isEmpty() && (fromB ? "A" : "B") != board)
		return Move();
	return found[0];
}

Result AliceBoard::result()
{
	QString str;

	// Checkmate/Stalemate
	if (!canMove())
	{
		if (inCheck(sideToMove()))
		{
			Side winner = sideToMove().opposite();
			str = tr("%1 mates").arg(winner.toString());
			return Result(Result::Win, winner, str);
		}
		str = tr("Draw by stalemate");
		return Result(Result::Draw, Side::NoSide, str);
	}

	// Bare kings
	bool bareKings = true;
	for (int sq = 0; sq < arraySize() && bareKings; sq++)
	{
		Piece piece = pieceAt(sq);
		if (piece.isValid() && baseType(piece.type()) != King)
			bareKings = false;
	}
	if (bareKings)
	{
		str = tr("Draw by bare kings");
		return Result(Result::Draw, Side::NoSide, str);
	}

	// 50 move rule
	if (m_reversibleMoveCount >= 100)
	{
		str = tr("Draw by fifty moves rule");
		return Result(Result::Draw, Side::NoSide, str);
	}

	// 3-fold repetition (the board of every piece is in the key)
	if (repeatCount() >= 2)
	{
		str = tr("Draw by 3-fold repetition");
		return Result(Result::Draw, Side::NoSide, str);
	}

	return Result();
}

} // namespace Chess
